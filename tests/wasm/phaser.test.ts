// Phaser graphs on both engines, one suite: the C++ runtime in wasm (Node, real pthreads, through
// the app's exports as the engine worker drives them) and the twin, read through the same tap —
// telemetry rings and the task board, decoded by src/telemetry. Both must deliver every item,
// keep the bound at every publish and wait, end with every task done, and build the same board:
// the same tasks (a sieve task per prime, in order, each spawned by the one before), the same
// streams, the ring's streams non-batched. The threads engine also pauses, resumes and stops.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { pipelineError, startWasmPipeline } from '../../src/engine/pipeline/wasmPipeline';
import type { PipelabModule } from '../../src/engine/wasmExports';
import type { ExperimentSpec } from '../../src/spec/experimentSpec';
import type { BoardFrame, TelemetryEvent } from '../../src/telemetry';
import { avgPipeline, primesThrough, ring, sieve, splitJoin } from '../unit/sim/phaserSpecs';
import { runOnThreads, runOnTwin } from './collectRun';
import { loadNodeModule, terminateThreads, waitFor } from './nodeModule';

let mod: PipelabModule;
beforeAll(async () => {
  mod = await loadNodeModule(2);
});
afterAll(() => terminateThreads(mod));

const SPECS: Record<string, ExperimentSpec> = {
  'pipeline, batch 1': avgPipeline({ items: 400, batch: 1, us: 20 }),
  'split-join, batch 8': splitJoin({ items: 400, batch: 8, us: 10 }, 3),
  'sieve to 300, batch 4': sieve({ batch: 4, us: 5 }, 300),
  'ring of 5, batch 64 requested': ring({ items: 500, batch: 64, us: 5 }, 5),
};

interface Outcome {
  events: TelemetryEvent[];
  board: BoardFrame;
  completed: number;
  dropped: number;
}

function onTwin(spec: ExperimentSpec): Outcome {
  const { events, last, run } = runOnTwin(spec, 2);
  return { events, board: last.board!, completed: run.summary().completed, dropped: last.dropped };
}

async function onThreads(spec: ExperimentSpec): Promise<Outcome> {
  const { events, last } = await runOnThreads(mod, spec);
  expect(pipelineError(mod)).toBe('');
  return {
    events,
    board: last.board!,
    completed: mod._pl_pipeline_completed(),
    dropped: last.dropped,
  };
}

function checkOutcome(spec: ExperimentSpec, o: Outcome) {
  expect(o.completed).toBe(spec.items);
  expect(o.dropped).toBe(0);
  expect(o.board.stalled).toBe(false);
  expect(o.board.tasks.every((t) => t.state === 'done')).toBe(true);
  for (const e of o.events) {
    if (e.kind === 'enqueue' || e.kind === 'dequeue')
      expect(e.arg).toBeLessThanOrEqual(spec.bound!);
    if (e.kind === 'start' || e.kind === 'end') expect(e.arg).toBeLessThan(o.board.tasks.length);
  }
  // Every task that served an element started it on one of the pool's threads.
  for (const e of o.events) if (e.kind === 'start') expect(e.worker).toBeLessThan(spec.threads);
}

/** What both engines must agree on: the graph they built. */
const shape = (b: BoardFrame) => ({
  tasks: b.tasks.map((t) => [t.stage, t.parent, t.label, t.input, t.output]),
  streams: b.streams.map((s) => [s.specIndex, s.fromTask, s.toTask, s.batched, s.cyclic, s.batch]),
  cyclic: b.cyclicStreams,
});

describe.each(Object.keys(SPECS))('%s', (name) => {
  const spec = SPECS[name];
  test('both engines deliver every item within the bound and build the same graph', async () => {
    const twin = onTwin(spec);
    const threads = await onThreads(spec);
    checkOutcome(spec, twin);
    checkOutcome(spec, threads);
    expect(shape(threads.board)).toEqual(shape(twin.board));
    if (spec.stages.some((s) => s.op === 'sieve')) {
      const labels = threads.board.tasks
        .filter((t) => t.stage === 1 && t.label)
        .map((t) => t.label);
      expect(labels).toEqual(primesThrough(spec.items + 1));
    }
    if (spec.stages.some((s) => s.op === 'token')) {
      expect(threads.board.cyclicStreams).toBe(spec.streams!.length);
      expect(threads.board.streams.every((s) => s.cyclic && s.batch === 1)).toBe(true);
    }
  });
});

test('a phaser run pauses (nothing completes), resumes, and stops with every thread gone', async () => {
  const spec = avgPipeline({ items: 200_000, batch: 1, us: 20 });
  startWasmPipeline(mod, spec);
  await waitFor(() => mod._pl_pipeline_completed() > 0, 20_000, 'items to come out');
  mod._pl_pipeline_pause();
  await waitFor(() => mod._pl_pipeline_paused() === 1, 10_000, 'every thread to park');
  const held = mod._pl_pipeline_completed();
  await new Promise((r) => setTimeout(r, 100));
  expect(mod._pl_pipeline_completed()).toBe(held);
  mod._pl_pipeline_resume();
  await waitFor(() => mod._pl_pipeline_completed() > held, 20_000, 'items after the resume');
  mod._pl_pipeline_request_cancel();
  await waitFor(() => mod._pl_pipeline_finished() === 1, 5_000, 'every thread to exit');
  mod._pl_pipeline_join();
  expect(mod._pl_pipeline_completed()).toBeLessThan(spec.items);
  expect(pipelineError(mod)).toBe('');
});
