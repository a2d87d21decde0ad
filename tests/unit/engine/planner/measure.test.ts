// The runs a plan's steps make: a measured point is the median of its repeats with distinct seeds,
// its runs sized by the twin, a given rate or trial runs; a stopped run is no point; a finished
// run reports what it produced and when its first item came out; a ratio of two specs' points.
import { expect, test } from 'vitest';
import { SimulationRun } from '../../../../src/engine/pipeline/simulationRun';
import type { ThreadsEngine } from '../../../../src/engine/pipeline/threadsEngine';
import {
  measurePoint,
  measureRun,
  ratioPoint,
  simulateRun,
  TRIAL_FIRST_ITEMS,
  TRIAL_MS,
} from '../../../../src/engine/planner/measure';
import { SWEEP_REPEATS } from '../../../../src/engine/sweep';
import { MIN_MEASURED_INTERVALS } from '../../../../src/runtimes/barrier';
import { MIN_MEASURED_ITEMS } from '../../../../src/runtimes/engineRules';
import { parseExperimentSpec, type ExperimentSpec } from '../../../../src/spec/experimentSpec';

const spec = (threads: number) =>
  parseExperimentSpec({
    runtime: 'work-stealing',
    stages: [
      { name: 'a', mode: 'parallel', threads: 1, service: { kind: 'exponential', meanUs: 50 } },
    ],
    threads,
    items: 200,
    seed: 1,
  });

/** A plan still running, and one stopped. */
const running = new AbortController().signal;
const stopped = AbortSignal.abort();

/** A stand-in for the threads engine: each run is done at once, at a rate that depends on its seed. */
function fakeEngine(rate: (spec: ExperimentSpec) => number, end: 'done' | 'stopped' = 'done') {
  const specs: ExperimentSpec[] = [];
  return {
    specs,
    run(s: ExperimentSpec) {
      specs.push(s);
      return {
        state: () => end,
        stop() {},
        error: () => null,
        tap: () => null,
        output: () => null,
        summary: () => ({
          items: s.items,
          completed: s.items,
          elapsedUs: (s.items / rate(s)) * 1e6,
          itemsPerSec: rate(s),
        }),
      } as unknown as ReturnType<ThreadsEngine['run']>;
    },
  };
}

test('a measured point is the median of SWEEP_REPEATS runs with distinct seeds, min and max', async () => {
  const engine = fakeEngine((s) => 100 + (s.seed % 7));
  const p = (await measurePoint(engine, spec(2), 2, running))!;
  expect(engine.specs).toHaveLength(SWEEP_REPEATS);
  expect(new Set(engine.specs.map((s) => s.seed)).size).toBe(SWEEP_REPEATS);
  const ys = engine.specs.map((s) => 100 + (s.seed % 7)).sort((a, b) => a - b);
  expect(p).toEqual({ x: 2, y: ys[1], min: ys[0], max: ys[2], source: 'threads' });
  // A short spec runs whole: trimming never adds items.
  for (const s of engine.specs) expect(s.items).toBe(spec(2).items);
});

test('a long spec is cut to about a second per point, never below MIN_MEASURED_ITEMS', async () => {
  const long = { ...spec(2), items: 1_000_000 };
  const fast = fakeEngine(() => 100);
  await measurePoint(fast, long, 2, running);
  for (const s of fast.specs) {
    expect(s.items).toBeLessThan(long.items);
    expect(s.items).toBeGreaterThan(MIN_MEASURED_ITEMS);
  }
  const slowStages = long.stages.map((s) => ({
    ...s,
    service: { kind: 'fixed' as const, us: 1e6 },
  }));
  const slow = fakeEngine(() => 1);
  await measurePoint(slow, { ...long, stages: slowStages }, 2, running);
  for (const s of slow.specs) expect(s.items).toBe(MIN_MEASURED_ITEMS);
});

test('a given expected rate sizes the runs without asking the twin', async () => {
  const long = { ...spec(2), items: 100_000_000 };
  const engine = fakeEngine(() => 100);
  // At 1e6 items/s, about THREADS_POINT_MS / SWEEP_REPEATS of run time each: 400_000 items.
  await measurePoint(engine, long, 2, running, SWEEP_REPEATS, 1_000_000);
  for (const s of engine.specs) expect(s.items).toBe(400_000);
});

test('a trial run on the engine sizes the runs, whatever the model expects', async () => {
  const long = { ...spec(2), items: 100_000_000 };
  // The same spec on a quiet machine (1e6 items/s) and on one ten times slower (loaded): the runs
  // last about THREADS_POINT_MS / SWEEP_REPEATS of real time on each.
  for (const [rate, perRun] of [
    [1_000_000, 400_000],
    [100_000, 40_000],
  ]) {
    const engine = fakeEngine(() => rate);
    const p = (await measurePoint(engine, long, 2, running, SWEEP_REPEATS, 'trial'))!;
    expect(p.y).toBe(rate);
    const trials = engine.specs.slice(0, -SWEEP_REPEATS);
    expect(trials[0].items).toBe(TRIAL_FIRST_ITEMS);
    // Each trial but the last lasted under TRIAL_MS, the last at least that long.
    const ms = (s: ExperimentSpec) => (s.items / rate) * 1000;
    expect(trials.slice(0, -1).every((s) => ms(s) < TRIAL_MS)).toBe(true);
    expect(ms(trials.at(-1)!)).toBeGreaterThanOrEqual(TRIAL_MS);
    for (const s of engine.specs.slice(-SWEEP_REPEATS)) expect(s.items).toBe(perRun);
  }
});

test('a trial never runs more items than the spec has, and a stopped trial is no point', async () => {
  const short = { ...spec(2), items: 300 };
  const engine = fakeEngine(() => 1_000_000);
  await measurePoint(engine, short, 2, running, SWEEP_REPEATS, 'trial');
  expect(engine.specs.map((s) => s.items)).toEqual(Array(1 + SWEEP_REPEATS).fill(300));
  const ended = fakeEngine(() => 100, 'stopped');
  expect(await measurePoint(ended, short, 2, stopped, SWEEP_REPEATS, 'trial')).toBeNull();
  expect(ended.specs).toHaveLength(1);
});

test('a measured point whose run was stopped is no point at all', async () => {
  const engine = fakeEngine(() => 100, 'stopped');
  expect(await measurePoint(engine, spec(2), 2, stopped)).toBeNull();
  expect(engine.specs).toHaveLength(1);
});

const twoStage = parseExperimentSpec({
  runtime: 'two-stage-output',
  stages: [
    { name: 'format', mode: 'parallel', threads: 2, service: { kind: 'fixed', us: 10 } },
    { name: 'write', mode: 'serial-in-order', service: { kind: 'fixed', us: 2 } },
  ],
  batchItems: 50,
  items: 400,
  seed: 3,
});

test('a finished run gives its product and the time its first item came out (from its rings)', async () => {
  // A run whose telemetry is real: the twin's, run to the end, behind the threads engine's face.
  const sim = new SimulationRun(twoStage);
  for (let ms = 0; sim.state() === 'running'; ms += 1) sim.tick(ms);
  const product = { checksum: '0123456789abcdef', bytes: 9000, batches: 8 };
  const engine = {
    run: () =>
      Object.assign(sim, { output: () => product }) as unknown as ReturnType<ThreadsEngine['run']>,
  };
  const run = (await measureRun(engine, twoStage, running, { firstOut: true }))!;
  expect(run.output).toEqual(product);
  expect(run.source).toBe('threads');
  // The first batch: formatted in 50 × 10 µs, written in 50 × 2 µs.
  expect(run.firstOutUs).toBe(600);
  expect(simulateRun(twoStage).firstOutUs).toBe(600);
  expect(simulateRun(twoStage).output).toBeNull();
  // A sweep's runs skip decoding the telemetry.
  expect((await measureRun(engine, twoStage, running))!.firstOutUs).toBeNull();
});

const barrier = (threads: number, cores: number) =>
  parseExperimentSpec({
    runtime: 'barrier',
    stages: [{ name: 'compute', mode: 'parallel', service: { kind: 'fixed', us: 600_000 } }],
    threads,
    cores,
    items: 50,
    seed: 1,
    schedule: 'packed',
  });

test('a ratio point: how many times longer one spec takes than another, measured or simulated', async () => {
  // Packed 3 on 2 is exactly 4/3 as slow as 2 on 2 in the twin.
  const simulated = (await ratioPoint(
    () => {
      throw new Error('no threads engine for a simulated point');
    },
    { x: 2, of: barrier(3, 2), over: barrier(2, 2), engine: 'simulation' },
    running,
  ))!;
  expect(simulated.source).toBe('simulation');
  expect(simulated.y).toBeCloseTo(4 / 3, 9);
  // Measured: each side's median rate, over / of; barrier runs keep at least a few intervals.
  const engine = fakeEngine((s) => (s.threads === 3 ? 1.5 : 2));
  const measured = (await ratioPoint(
    () => engine as unknown as ThreadsEngine,
    { x: 2, of: barrier(3, 2), over: barrier(2, 2), engine: 'threads' },
    running,
  ))!;
  expect(measured).toEqual({ x: 2, y: 2 / 1.5, min: 2 / 1.5, max: 2 / 1.5, source: 'threads' });
  expect(engine.specs).toHaveLength(2 * SWEEP_REPEATS);
  for (const s of engine.specs) expect(s.items).toBe(MIN_MEASURED_INTERVALS);
});
