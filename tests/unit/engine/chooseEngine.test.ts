// The engine choice and the reason shown for it.
import { expect, test } from 'vitest';
import {
  chooseEngine,
  THREADS_ENGINE_MAX_UNBOUNDED_ITEMS_OUT,
} from '../../../src/engine/pipeline/chooseEngine';
import { parseExperimentSpec } from '../../../src/spec/experimentSpec';

const ws = (threads: number) =>
  parseExperimentSpec({
    runtime: 'work-stealing',
    stages: [{ name: 'a', mode: 'parallel', threads: 1, service: { kind: 'fixed', us: 1 } }],
    threads,
    items: 10,
    seed: 1,
  });
const ctx = { isolated: true, cores: 4, preferSimulation: false };

test('threads when isolated and within cores × 4', () => {
  expect(chooseEngine(ws(16), ctx)).toEqual({
    engine: 'threads',
    reason: '16 real threads on your 4 cores',
  });
});

test.each([
  [{ ...ctx, isolated: false }, 4, /not cross-origin isolated/],
  [ctx, 17, /17 threads is more than 16 \(your 4 cores × 4, at most 64\)/],
  [{ ...ctx, cores: 32 }, 65, /more than 64/],
  [{ ...ctx, preferSimulation: true }, 2, /you chose the simulation/],
])('simulation with a reason (%#)', (c, threads, reason) => {
  const choice = chooseEngine(ws(threads), c);
  expect(choice.engine).toBe('simulation');
  expect(choice.reason).toMatch(reason);
});

const barrier = (threads: number, cores: number, schedule: string) =>
  parseExperimentSpec({
    runtime: 'barrier',
    stages: [{ name: 'compute', mode: 'parallel', service: { kind: 'fixed', us: 100_000 } }],
    threads,
    cores,
    items: 10,
    seed: 1,
    schedule,
  });

test.each([
  [barrier(3, 2, 'packed'), 'threads', '3 threads packed onto 2 real core threads on your 4 cores'],
  [
    barrier(16, 1, 'packed'),
    'threads',
    '16 threads packed onto 1 real core thread on your 4 cores',
  ],
  [
    barrier(16, 15, 'packed'),
    'simulation',
    'packing onto 15 cores needs 15 cores of your own and you have 4, so the twin simulates them',
  ],
  [
    barrier(65, 2, 'packed'),
    'simulation',
    '65 threads is more than the 64 the threads engine runs',
  ],
  [barrier(5, 4, 'os'), 'threads', '5 real threads on your 4 cores, placed by your OS'],
  [
    barrier(3, 2, 'os'),
    'simulation',
    'your OS spreads real threads over all 4 of your cores, so a budget of 2 cores under OS scheduling is simulated (packed scheduling runs it on real threads)',
  ],
  [barrier(17, 4, 'os'), 'simulation', '17 threads is more than 16 (your 4 cores × 4, at most 64)'],
])('barrier runtime: %#', (spec, engine, reason) => {
  expect(chooseEngine(spec, ctx)).toEqual({ engine, reason });
});

test('unbounded queues: threads up to the items out the engine holds, the simulation beyond', () => {
  const open = (items: number, emits: number) =>
    parseExperimentSpec({
      runtime: 'collapsed',
      stages: [
        { name: 'in', mode: 'serial-in-order', emits, service: { kind: 'fixed', us: 1 } },
        { name: 'work', mode: 'parallel', service: { kind: 'fixed', us: 1 } },
      ],
      queue: { kind: 'mutex', capacity: null },
      items,
      seed: 1,
    });
  expect(chooseEngine(open(THREADS_ENGINE_MAX_UNBOUNDED_ITEMS_OUT, 1), ctx).engine).toBe('threads');
  expect(chooseEngine(open(THREADS_ENGINE_MAX_UNBOUNDED_ITEMS_OUT / 4, 4), ctx).engine).toBe(
    'threads',
  );
  const over = chooseEngine(open(THREADS_ENGINE_MAX_UNBOUNDED_ITEMS_OUT / 4 + 1, 4), ctx);
  expect(over.engine).toBe('simulation');
  expect(over.reason).toBe(
    '500004 items out over unbounded queues could all wait in memory at once, more than the threads engine holds (500000)',
  );
  // Bounded queues hold at most their capacity: any item count runs on threads.
  expect(
    chooseEngine({ ...open(2_000_000, 1), queue: { kind: 'mutex', capacity: 4 } }, ctx).engine,
  ).toBe('threads');
});
