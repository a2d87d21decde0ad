// Runs one spec to its end on either engine and collects what the page would have read: every
// frame's events (in the order the frames handed them over) and the last frame — shared by the
// suites that compare the engines (engines.test.ts, phaser.test.ts).
import { SimulationRun } from '../../src/engine/pipeline/simulationRun';
import {
  startWasmPipeline,
  wasmTap,
  whenPipelineFinished,
} from '../../src/engine/pipeline/wasmPipeline';
import type { PipelabModule } from '../../src/engine/wasmExports';
import type { ExperimentSpec } from '../../src/spec/experimentSpec';
import { readTap, type TapFrame, type TelemetryEvent } from '../../src/telemetry';

export interface Collected {
  events: TelemetryEvent[];
  /** The frame read after the run ended (its counters, drops and board are the final ones). */
  last: TapFrame;
}

/** Appends a frame's events to `into`; returns the frame. */
export function collect(into: TelemetryEvent[], frame: TapFrame): TapFrame {
  for (const e of frame.events) into.push(e);
  return frame;
}

/** The twin paced by `stepMs` of page time a frame until it stops running (ten minutes at most). */
export function runOnTwin(
  spec: ExperimentSpec,
  stepMs: number,
): Collected & { run: SimulationRun } {
  const run = new SimulationRun(spec);
  const events: TelemetryEvent[] = [];
  let last = collect(events, readTap(run.tap()));
  for (let ms = 0; run.state() === 'running' && ms < 600_000; ms += stepMs) {
    run.tick(ms);
    last = collect(events, readTap(run.tap()));
  }
  return { events, last, run };
}

/** The C++ runtime on real threads, its rings read every 2 ms (so none overflows) until it has
 * finished; throws after 60 s. */
export async function runOnThreads(mod: PipelabModule, spec: ExperimentSpec): Promise<Collected> {
  const tap = wasmTap(mod.HEAPU8.buffer, startWasmPipeline(mod, spec));
  const events: TelemetryEvent[] = [];
  let done = false;
  void whenPipelineFinished(mod).then(() => (done = true));
  const deadline = performance.now() + 60_000;
  while (!done) {
    if (performance.now() > deadline)
      throw new Error('the wasm pipeline run did not finish in 60 s');
    collect(events, readTap(tap));
    await new Promise((r) => setTimeout(r, 2));
  }
  return { events, last: collect(events, readTap(tap)) };
}
