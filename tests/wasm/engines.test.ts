// One suite, both engines: the same specs run on the simulation twin and on the real C++ runtimes
// in wasm (Node, real pthreads), read through the same telemetry tap, and must satisfy the same
// invariants — every item out exactly once, serial-in-order stages in input order, counters that
// agree with the events, nothing dropped.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SimulationRun } from '../../src/engine/pipeline/simulationRun';
import { readTap, type TapFrame } from '../../src/engine/pipeline/telemetryTap';
import {
  startWasmPipeline,
  wasmTap,
  whenPipelineFinished,
} from '../../src/engine/pipeline/wasmPipeline';
import type { PipelabModule } from '../../src/engine/wasmExports';
import { parseExperimentSpec, type ExperimentSpec } from '../../src/spec/experimentSpec';
import type { TelemetryEvent } from '../../src/telemetry';
import { loadNodeModule, terminateThreads } from './nodeModule';

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
};

interface Collected {
  events: TelemetryEvent[];
  last: TapFrame;
}

function collect(into: TelemetryEvent[], frame: TapFrame): TapFrame {
  for (const e of frame.events) into.push(e);
  return frame;
}

function runSimulation(spec: ExperimentSpec): Collected {
  const run = new SimulationRun(spec);
  const events: TelemetryEvent[] = [];
  let last = collect(events, readTap(run.tap()));
  for (let ms = 0; run.state() === 'running' && ms < 600_000; ms += 5) {
    run.tick(ms);
    last = collect(events, readTap(run.tap()));
  }
  return { events, last };
}

async function runThreads(spec: ExperimentSpec): Promise<Collected> {
  const layout = startWasmPipeline(mod, spec);
  const tap = wasmTap(mod.HEAPU8.buffer, layout);
  const events: TelemetryEvent[] = [];
  const finished = whenPipelineFinished(mod);
  let done = false;
  void finished.then(() => (done = true));
  const deadline = performance.now() + 60_000;
  while (!done) {
    if (performance.now() > deadline)
      throw new Error('the wasm pipeline run did not finish in 60 s');
    collect(events, readTap(tap));
    await new Promise((r) => setTimeout(r, 2));
  }
  return { events, last: collect(events, readTap(tap)) };
}

function checkInvariants(spec: ExperimentSpec, { events, last }: Collected) {
  const lastStage = spec.stages.length - 1;
  const out = events.filter((e) => e.kind === 'end' && e.stage === lastStage).map((e) => e.item);
  expect([...out].sort((a, b) => a - b)).toEqual(Array.from({ length: spec.items }, (_, i) => i));
  spec.stages.forEach((stage, s) => {
    const starts = events.filter((e) => e.kind === 'start' && e.stage === s).map((e) => e.item);
    expect(starts, `stage ${s} starts`).toHaveLength(spec.items);
    if (stage.mode === 'serial-in-order')
      expect(starts, `stage ${s} order`).toEqual([...starts].sort((a, b) => a - b));
    expect(last.counters[s].itemsOut, `stage ${s} itemsOut`).toBe(spec.items);
  });
  expect(last.dropped).toBe(0);
}

describe.each(Object.keys(SPECS))('%s', (name) => {
  const spec = SPECS[name];
  test('simulation engine', () => checkInvariants(spec, runSimulation(spec)));
  test('threads engine (C++ in wasm)', async () => checkInvariants(spec, await runThreads(spec)));
});

test('a bad spec is rejected by the C++ parser, naming the field', () => {
  const bad = { ...SPECS.static, stages: [{ ...SPECS.static.stages[0], threads: 2 }] };
  expect(() => startWasmPipeline(mod, bad as ExperimentSpec)).toThrow(/stages\[0\]\.threads/);
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
