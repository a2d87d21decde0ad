// The reorder view's pool, folded from real twin telemetry of the two-stage output: never more
// buffers holding a batch than the pool has, every batch written and every buffer free at the
// end; batches that finish before an earlier one are counted (and none when one formatter works
// alone); formatters short of buffers are seen waiting; an event arriving a frame late never
// moves a buffer back.
import { expect, test } from 'vitest';
import { SimulationRun } from '../../../src/engine/pipeline/simulationRun';
import { BufferPoolTracker } from '../../../src/live/bufferPool';
import { LiveStateTracker } from '../../../src/live/liveState';
import { parseExperimentSpec } from '../../../src/spec/experimentSpec';
import { readTap, type TelemetryEvent } from '../../../src/telemetry';

const output = (threads: number, buffers: number, meanUs: number) =>
  parseExperimentSpec({
    runtime: 'two-stage-output',
    stages: [
      { name: 'format', mode: 'parallel', threads, service: { kind: 'exponential', meanUs } },
      { name: 'write', mode: 'serial-in-order', service: { kind: 'fixed', us: 1 } },
    ],
    batchItems: 4,
    buffers,
    items: 400,
    seed: 4,
  });

/** Runs the twin frame by frame (1 ms), folding each frame's events into a LiveStateTracker. */
function fold(spec: ReturnType<typeof output>, onFrame?: (t: LiveStateTracker) => void) {
  const run = new SimulationRun(spec);
  const tracker = new LiveStateTracker(run.workers, spec.stages.length, 100_000);
  for (let ms = 0; run.state() === 'running'; ms++) {
    run.tick(ms);
    tracker.advance(readTap(run.tap()).events, run.nowUs());
    onFrame?.(tracker);
  }
  return tracker.snapshot().bufferPool!;
}

test('the pool stays within its buffers, and ends with every batch written and every buffer free', () => {
  const spec = output(4, 3, 10);
  let mostHeld = 0;
  let sawWaiting = false;
  const end = fold(spec, (t) => {
    const pool = t.snapshot().bufferPool;
    if (!pool) return;
    mostHeld = Math.max(mostHeld, pool.slots.filter((s) => s.state !== 'free').length);
    sawWaiting ||= pool.formattersWaiting > 0;
  });
  expect(mostHeld).toBe(3);
  expect(end.slots).toHaveLength(3);
  expect(end.slots.every((s) => s.state === 'free' && s.batch === null)).toBe(true);
  expect(end.written).toBe(100);
  expect(end.nextToWrite).toBe(100);
  // Four formatters, three buffers: formatters find the pool empty.
  expect(sawWaiting).toBe(true);
  expect(end.bufferWaits).toBeGreaterThan(0);
});

test('batches that finish before an earlier one are counted, and wait for their turn', () => {
  let sawWaitingBatch = false;
  const end = fold(output(4, 6, 20), (t) => {
    const pool = t.snapshot().bufferPool;
    sawWaitingBatch ||= pool?.slots.some((s) => s.waiting && s.state === 'ready') ?? false;
  });
  expect(end.finishedOutOfOrder).toBeGreaterThan(0);
  expect(sawWaitingBatch).toBe(true);
  // One formatter finishes its batches in order: none waits for an earlier one.
  expect(fold(output(1, 3, 20)).finishedOutOfOrder).toBe(0);
});

test('a late event never moves a buffer back', () => {
  const e = (kind: TelemetryEvent['kind'], item: number, arg: number, stage = 1): TelemetryEvent =>
    ({ kind, item, arg, stage, worker: 0, timeUs: 0, seq: 0 }) as TelemetryEvent;
  const pool = new BufferPoolTracker();
  pool.apply(e('buffer-take', 0, 0, 0));
  pool.apply(e('buffer-ready', 0, 0));
  pool.apply(e('start', 0, 0));
  pool.apply(e('buffer-free', 0, 0));
  pool.apply(e('buffer-take', 3, 0, 0));
  pool.apply(e('buffer-ready', 0, 0)); // batch 0's step, a frame late
  const s = pool.snapshot()!;
  expect(s.slots[0]).toEqual({ state: 'filling', batch: 3, waiting: false });
  expect(s.written).toBe(1);
});
