// Race results → what the views draw: repeats of one measurement found by their config (defaults
// filled), median and spread, and ratios paired by plan and round — never across plans.
import { expect, test } from 'vitest';
import type { RaceResult } from '../../../src/engine/race/raceConfig';
import { decided, measured, pairedRatio, type RaceRun } from '../../../src/live/raceSummary';
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
