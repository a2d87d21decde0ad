// Race results → what the views draw: repeats of one measurement found by their config (defaults
// filled), median and spread, and ratios paired by plan and round — never across plans.
import { expect, test } from 'vitest';
import type { RaceResult } from '../../../src/spec/raceConfig';
import {
  decided,
  measured,
  pairedRatio,
  runsOfNewestPlan,
  type RaceRun,
} from '../../../src/live/raceSummary';
import { raceKey, type RaceConfig } from '../../../src/spec/raceConfig';
import { interleave } from '../../../src/app/queues/racePlans';

const run = (queue: string, itemsPerS: number, plan: number, round: number, extra = {}): RaceRun =>
  ({
    config: {
      queue,
      variant: 'comm',
      stages: 2,
      semiItems: 512,
      matrixSize: 32,
      workUs: 0,
      durationMs: 250,
      offeredPerS: 0,
      ...extra,
    },
    itemsPerS,
    plan,
    round,
  }) as unknown as RaceRun;

test('repeats of a measurement: found by config with defaults filled, median and range', () => {
  const results = [run('batch', 10, 1, 0), run('batch', 30, 1, 1), run('batch', 20, 1, 2)];
  results.push(run('batch', 99, 1, 0, { stages: 4 }), run('lamport', 5, 1, 0));
  const m = measured(results, { queue: 'batch', durationMs: 999 })!; // duration is not the key
  expect(m.repeats).toBe(3);
  expect(m.rate).toEqual({ median: 20, min: 10, max: 30 });
  expect(measured(results, { queue: 'mutex' })).toBeNull();
});

test('ratios pair rounds of the same plan only', () => {
  const results = [
    run('batch', 100, 1, 0),
    run('lamport', 10, 1, 0),
    run('batch', 90, 1, 1),
    run('lamport', 30, 1, 1),
    run('batch', 1000, 2, 0), // another plan, lamport not in it: not paired
  ];
  const r = pairedRatio(
    measured(results, { queue: 'batch' }),
    measured(results, { queue: 'lamport' }),
  )!;
  expect(r.pairs).toBe(2);
  expect(r).toMatchObject({ median: 6.5, min: 3, max: 10 });
  expect(decided(r, 2)).toBe('above');
  expect(decided(r, 5)).toBe('undecided');
  expect(decided(r, 11)).toBe('below');
  expect(pairedRatio(null, measured(results, { queue: 'batch' }))).toBeNull();
});

test('interleave: every config once per round, rotated by one each round', () => {
  const c = (queue: string) => ({ queue }) as RaceResult['config'];
  const plan = interleave([c('a'), c('b'), c('c')], 3).map((x) => x.queue);
  expect(plan).toEqual(['a', 'b', 'c', 'b', 'c', 'a', 'c', 'a', 'b']);
});

test('a panel draws the newest plan that planned all its measurements, running or done', () => {
  const comm = (queue: string) => ({ queue, variant: 'comm', stages: 2 }) as RaceConfig;
  const plan = (id: number, queues: string[]) => ({
    id,
    keys: new Set(queues.map((q) => raceKey(comm(q)))),
  });
  // 1: a race of three queues; 2: a panel's plan of two of them; 3: one queue only, still running.
  const plans = [plan(1, ['batch', 'lamport', 'mutex']), plan(2, ['batch', 'lamport'])];
  plans.push(plan(3, ['batch']));
  const results = [
    run('batch', 10, 1, 0),
    run('lamport', 5, 1, 0),
    run('mutex', 1, 1, 0),
    run('batch', 20, 2, 0),
    run('lamport', 4, 2, 0),
    run('batch', 30, 3, 0),
  ];
  const pair = [comm('batch'), comm('lamport')];
  // The pair's newest covering plan is 2, not 3 (which lacks lamport): bars and ratio from plan 2.
  const runs = runsOfNewestPlan(results, plans, pair);
  expect(runs.map((r) => r.itemsPerS)).toEqual([20, 4]);
  expect(measured(runs, comm('batch'))!.repeats).toBe(1);
  expect(pairedRatio(measured(runs, pair[0]), measured(runs, pair[1]))!.median).toBe(5);
  // All three queues: only plan 1 planned them, though plans 2 and 3 are newer.
  expect(runsOfNewestPlan(results, plans, [...pair, comm('mutex')])).toHaveLength(3);
  // A plan that has not measured anything yet still wins: its bars start empty and fill.
  expect(runsOfNewestPlan(results, [...plans, plan(4, ['batch', 'lamport'])], pair)).toEqual([]);
  expect(runsOfNewestPlan(results, plans, [comm('fastforward')])).toEqual([]);
});
