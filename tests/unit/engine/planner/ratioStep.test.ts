// A ratio step run by the planner's runStep on the page's engines (src/engine/planner/steps.ts):
// the page's engines are an object whose threads() reads `this` (pageEngines.ts), so runStep must
// call it as a method — passing it bare failed every measured ratio ("Cannot read properties of
// undefined"), which only a ratio on real threads reaches (lesson 7's TR-against-TP table).
import { expect, test } from 'vitest';
import type { ThreadsEngine } from '../../../../src/engine/pipeline/threadsEngine';
import { runStep, type StepEngines } from '../../../../src/engine/planner/steps';
import { parseExperimentSpec } from '../../../../src/spec/experimentSpec';

const barrier = (threads: number) =>
  parseExperimentSpec({
    runtime: 'barrier',
    stages: [{ name: 'compute', mode: 'parallel', service: { kind: 'fixed', us: 600_000 } }],
    threads,
    cores: 2,
    items: 50,
    seed: 1,
    schedule: 'packed',
  });

/** Finished runs at `rate` items/s whatever the spec: 3 threads at 1.5, 2 at 2. */
const fakeThreads = {
  run: (s: { items: number; threads: number }) => {
    const rate = s.threads === 3 ? 1.5 : 2;
    return {
      state: () => 'done',
      stop() {},
      error: () => null,
      tap: () => null,
      output: () => null,
      summary: () => ({
        items: s.items,
        completed: s.items,
        elapsedUs: (s.items / rate) * 1e6,
        itemsPerSec: rate,
      }),
    };
  },
} as unknown as ThreadsEngine;

class Engines implements StepEngines {
  private engine = fakeThreads;
  threads() {
    return this.engine;
  }
  race(): never {
    throw new Error('no race here');
  }
  live(): never {
    throw new Error('no live run here');
  }
}

test('a measured ratio step calls the engines as methods', async () => {
  const p = await runStep(
    {
      kind: 'ratio',
      label: 'r',
      x: 2,
      of: barrier(3),
      over: barrier(2),
      engine: 'threads',
      repeats: 1,
    },
    new Engines(),
    new AbortController().signal,
  );
  expect(p).toEqual({ x: 2, y: 2 / 1.5, min: 2 / 1.5, max: 2 / 1.5, source: 'threads' });
});
