// The engine choice and the reason shown for it.
import { expect, test } from 'vitest';
import { chooseEngine } from '../../../src/engine/pipeline/chooseEngine';
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
