// One suite, both engines: the same specs run on the simulation twin and on the real C++ runtimes
// in wasm (Node, real pthreads), read through the same telemetry tap, and must satisfy the same
// invariants — every item out exactly once, serial-in-order stages in input order, counters that
// agree with the events, nothing dropped; for the batch runtimes (two-stage I/O) every batch once
// per stage with its items, the writer in batch order, and each buffer taken and freed in turn,
// never more in use than the pool; for the barrier runtime, every thread passes every interval's
// barrier once and none before the last arrival (tests/support/barrierTelemetry.ts). The threads
// engine also pauses and resumes through the
// exports (the page drives the same calls through the engine worker).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { THREADS_ENGINE_MAX_UNBOUNDED_ITEMS_OUT } from '../../src/engine/pipeline/chooseEngine';
import { readTap, type TapFrame } from '../../src/telemetry';
import {
  startWasmPipeline,
  wasmTap,
  whenPipelineFinished,
} from '../../src/engine/pipeline/wasmPipeline';
import type { PipelabModule } from '../../src/engine/wasmExports';
import { parseExperimentSpec, type ExperimentSpec } from '../../src/spec/experimentSpec';
import type { TelemetryEvent } from '../../src/telemetry';
import { collect, runOnThreads, runOnTwin } from './collectRun';
import { checkInvariants, inRunClockOrder } from './runInvariants';
import { loadNodeModule, terminateThreads, waitFor } from './nodeModule';

let mod: PipelabModule;
beforeAll(async () => {
  mod = await loadNodeModule(2);
});
afterAll(() => terminateThreads(mod));

const stages = [
  { name: 'in', mode: 'serial-in-order', threads: 1, service: { kind: 'fixed', us: 20 } },
  { name: 'work', mode: 'parallel', threads: 2, service: { kind: 'exponential', meanUs: 60 } },
  { name: 'out', mode: 'serial-in-order', threads: 1, service: { kind: 'fixed', us: 20 } },
];
const dedupStages = [
  { name: 'in', mode: 'serial-in-order', service: { kind: 'fixed', us: 10 } },
  { name: 'anchor', mode: 'parallel', threads: 2, emits: 4, service: { kind: 'fixed', us: 40 } },
  { name: 'hash', mode: 'parallel', service: { kind: 'exponential', meanUs: 10 } },
  { name: 'compress', mode: 'parallel', bypass: 0.4, service: { kind: 'fixed', us: 20 } },
  { name: 'out', mode: 'serial-in-order', service: { kind: 'fixed', us: 5 } },
];
const SPECS: Record<string, ExperimentSpec> = {
  static: parseExperimentSpec({
    runtime: 'static',
    stages,
    queue: { kind: 'batch', capacity: 4 },
    items: 300,
    seed: 5,
  }),
  'static mpmc': parseExperimentSpec({
    runtime: 'static',
    stages,
    queue: { kind: 'vyukov-mpmc', capacity: 2 },
    items: 300,
    seed: 6,
  }),
  'work-stealing': parseExperimentSpec({
    runtime: 'work-stealing',
    stages,
    threads: 3,
    tokens: 3,
    items: 300,
    seed: 7,
  }),
  // Three buffers for two formatters: formatters wait for buffers, batches wait for their turn.
  'two-stage-output': parseExperimentSpec({
    runtime: 'two-stage-output',
    stages: [
      {
        name: 'format',
        mode: 'parallel',
        threads: 2,
        service: { kind: 'exponential', meanUs: 20 },
      },
      { name: 'write', mode: 'serial-in-order', service: { kind: 'fixed', us: 5 } },
    ],
    batchItems: 32,
    buffers: 3,
    items: 300,
    seed: 8,
  }),
  'two-stage-output serial': parseExperimentSpec({
    runtime: 'two-stage-output',
    stages: [
      { name: 'format', mode: 'parallel', service: { kind: 'fixed', us: 10 } },
      { name: 'write', mode: 'serial-in-order', service: { kind: 'fixed', us: 5 } },
    ],
    variant: 'serial',
    batchItems: 50,
    items: 300,
    seed: 9,
  }),
  'two-stage-input': parseExperimentSpec({
    runtime: 'two-stage-input',
    stages: [
      { name: 'scan', mode: 'serial-in-order', service: { kind: 'fixed', us: 5 } },
      { name: 'read', mode: 'parallel', threads: 2, service: { kind: 'exponential', meanUs: 20 } },
    ],
    batchItems: 16,
    items: 300,
    seed: 10,
  }),
  // Dedup's shapes (seed 000 §2.2): anchor emits 4 items per item, compress is bypassed by 40%.
  'dedup static': parseExperimentSpec({
    runtime: 'static',
    stages: dedupStages,
    queue: { kind: 'vyukov-mpmc', capacity: 4 },
    items: 120,
    seed: 8,
  }),
  'dedup collapsed, unbounded queues': parseExperimentSpec({
    runtime: 'collapsed',
    stages: dedupStages,
    queue: { kind: 'vyukov-mpmc', capacity: null },
    items: 120,
    seed: 9,
  }),
  ...barrierSpecs(),
};

/** Barrier runs: 3 threads packed on 2 cores, and under the OS with each barrier. */
function barrierSpecs(): Record<string, ExperimentSpec> {
  const barrier = (schedule: string, kind: string, threads: number) =>
    parseExperimentSpec({
      runtime: 'barrier',
      stages: [
        { name: 'compute', mode: 'parallel', service: { kind: 'fixed', us: 600 * threads } },
      ],
      threads,
      cores: 2,
      items: 40,
      seed: 3,
      schedule,
      barrier: kind,
      quantumUs: 200,
    });
  return {
    'barrier packed blocking': barrier('packed', 'blocking', 3),
    'barrier packed spin': barrier('packed', 'spin', 3),
    'barrier os blocking': barrier('os', 'blocking', 3),
    // Spinning threads that outnumber the cores cost a time slice per interval: one per core.
    'barrier os spin': barrier('os', 'spin', 2),
  };
}

const runSimulation = (spec: ExperimentSpec) => runOnTwin(spec, 5);
const runThreads = async (spec: ExperimentSpec) => inRunClockOrder(await runOnThreads(mod, spec));

describe.each(Object.keys(SPECS))('%s', (name) => {
  const spec = SPECS[name];
  test('simulation engine', () => checkInvariants(spec, runSimulation(spec), 'simulation'));
  test('threads engine (C++ in wasm)', async () => checkInvariants(spec, await runThreads(spec)));
});

test('a bad spec is rejected by the C++ parser, naming the field', () => {
  const bad = { ...SPECS.static, stages: [{ ...SPECS.static.stages[0], threads: 2 }] };
  expect(() => startWasmPipeline(mod, bad as ExperimentSpec)).toThrow(/stages\[0\]\.threads/);
});

// The page sends such a run to the simulation (chooseEngine); the C++ refuses it by itself too,
// at the same count, before any thread starts.
test('unbounded queues: the threads engine refuses more items out than its memory holds', async () => {
  const open = (items: number) =>
    parseExperimentSpec({ ...SPECS['dedup collapsed, unbounded queues'], items });
  const most = THREADS_ENGINE_MAX_UNBOUNDED_ITEMS_OUT / 4; // anchor emits 4 per item
  expect(() => startWasmPipeline(mod, open(most + 1))).toThrow(
    `items: ${most + 1} is out of range for the threads engine with unbounded queues (allowed 1..${most}: every item out could wait in a queue at once, and memory holds ${THREADS_ENGINE_MAX_UNBOUNDED_ITEMS_OUT})`,
  );
  startWasmPipeline(mod, open(most));
  mod._pl_pipeline_request_cancel();
  await whenPipelineFinished(mod);
});

test('cancel mid-run: every thread exits within 50 ms and the next run starts', async () => {
  const slow = parseExperimentSpec({ ...SPECS['work-stealing'], items: 100000 });
  startWasmPipeline(mod, slow);
  await new Promise((r) => setTimeout(r, 100));
  expect(mod._pl_pipeline_finished()).toBe(0);
  const t0 = performance.now();
  mod._pl_pipeline_request_cancel();
  await whenPipelineFinished(mod, 1);
  expect(performance.now() - t0).toBeLessThan(50);
  checkInvariants(SPECS.static, await runThreads(SPECS.static));
});

/** Reads the rings every 2 ms (so none overflows) until `done()` or `limitMs`; false on timeout. */
async function collectUntil(
  tap: ReturnType<typeof wasmTap>,
  events: TelemetryEvent[],
  done: () => boolean,
  limitMs = 30_000,
): Promise<boolean> {
  const t0 = performance.now();
  while (!done()) {
    if (performance.now() - t0 > limitMs) return false;
    collect(events, readTap(tap));
    await new Promise((r) => setTimeout(r, 2));
  }
  return true;
}

const lastItemsOut = (frame: TapFrame) => frame.counters[frame.counters.length - 1].itemsOut;

// Pause is cooperative: the threads finish the item in hand and block (a futex wait, Atomics.wait
// in a pthread Worker, so they burn no CPU) until resume; the run clock stands still meanwhile.
describe.each([
  'static',
  'work-stealing',
  'two-stage-output',
  'two-stage-input',
  'barrier packed blocking',
])('pause / resume on %s', (name) => {
  // Long enough to pause mid-run (a barrier interval lasts ~1 ms here).
  const spec = parseExperimentSpec({
    ...SPECS[name],
    items: name.startsWith('barrier') ? 300 : 6000,
  });

  test('no item completes and the clock stands still while paused; the run then completes', async () => {
    const t0 = performance.now();
    const layout = startWasmPipeline(mod, spec);
    const tap = wasmTap(mod.HEAPU8.buffer, layout);
    const events: TelemetryEvent[] = [];
    expect(await collectUntil(tap, events, () => mod._pl_pipeline_completed() > 0)).toBe(true);
    mod._pl_pipeline_pause();
    const acked = () => mod._pl_pipeline_paused() === 1 || mod._pl_pipeline_finished() === 1;
    expect(await collectUntil(tap, events, acked)).toBe(true);
    expect(mod._pl_pipeline_paused(), 'the run ended before the pause took effect').toBe(1);
    const pausedAt = performance.now();
    const completed = mod._pl_pipeline_completed();
    const clock = mod._pl_pipeline_now_us();
    const out = lastItemsOut(collect(events, readTap(tap)));
    const cpu0 = process.cpuUsage();
    await collectUntil(tap, events, () => performance.now() - pausedAt > 150);
    const cpu = process.cpuUsage(cpu0);
    const pausedMs = performance.now() - pausedAt;
    expect(mod._pl_pipeline_completed()).toBe(completed);
    expect(mod._pl_pipeline_now_us()).toBe(clock);
    // Parked threads flushed their service tallies: the counters are exact while paused.
    expect(out).toBe(completed);
    expect(lastItemsOut(collect(events, readTap(tap)))).toBe(completed);
    // Every thread of this process (the pthread Workers included) used under half a core.
    expect((cpu.user + cpu.system) / 1000).toBeLessThan(pausedMs / 2);
    mod._pl_pipeline_resume();
    expect(mod._pl_pipeline_paused()).toBe(0);
    const finished = whenPipelineFinished(mod);
    let done = false;
    void finished.then(() => (done = true));
    expect(await collectUntil(tap, events, () => done)).toBe(true);
    const wallMs = performance.now() - t0;
    const last = collect(events, readTap(tap));
    // By the run clock, across the pause too.
    checkInvariants(spec, inRunClockOrder({ events, last }));
    // The clock left out at least the interval between the acknowledgement and the resume.
    const elapsedMs = mod._pl_pipeline_elapsed_us() / 1000;
    expect(elapsedMs).toBeGreaterThan(0);
    expect(elapsedMs).toBeLessThanOrEqual(wallMs - pausedMs);
  });

  test('a pause right after start holds the threads as they arrive; cancel ends a paused run', async () => {
    startWasmPipeline(mod, spec);
    mod._pl_pipeline_pause();
    await waitFor(() => mod._pl_pipeline_paused() === 1, 10_000, 'every thread to park');
    const completed = mod._pl_pipeline_completed();
    await new Promise((r) => setTimeout(r, 50));
    expect(mod._pl_pipeline_completed()).toBe(completed);
    expect(completed).toBeLessThan(spec.items);
    mod._pl_pipeline_request_cancel();
    await waitFor(() => mod._pl_pipeline_finished() === 1, 5_000, 'every thread to exit');
    mod._pl_pipeline_join();
    expect(mod._pl_pipeline_completed()).toBeLessThan(spec.items);
  });
});
