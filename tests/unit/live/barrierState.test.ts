// The packing grid's live state, fed the twin's telemetry in frames of any size: it completes each
// interval once every thread has passed it, its totals agree with the twin's own accounting
// (computing per thread and per core, barrier waits), and it survives lost records.
import { expect, test } from 'vitest';
import { BarrierTracker } from '../../../src/live/barrierState';
import { createSimulation } from '../../../src/runtimes';
import { parseExperimentSpec } from '../../../src/spec/experimentSpec';
import type { TelemetryEvent } from '../../../src/telemetry';

const spec = (schedule: string) =>
  parseExperimentSpec({
    runtime: 'barrier',
    stages: [{ name: 'compute', mode: 'parallel', service: { kind: 'fixed', us: 3000 } }],
    threads: 3,
    cores: 2,
    items: 20,
    seed: 2,
    schedule,
    quantumUs: 400,
  });

function twinEvents(schedule: string) {
  const events: TelemetryEvent[] = [];
  const result = createSimulation(spec(schedule), {
    sink: (e) => events.push({ ...e, seq: events.length }),
  }).runToEnd();
  return { events, result };
}

test.each(['packed', 'os'])(
  '%s: totals agree with the twin, whatever the frame size',
  (schedule) => {
    const { events, result } = twinEvents(schedule);
    for (const frame of [1, 7, 1000]) {
      const tracker = new BarrierTracker(3);
      for (let i = 0; i < events.length; i += frame) tracker.advance(events.slice(i, i + frame));
      const s = tracker.snapshot();
      expect(s.intervals).toBe(20);
      expect(s.last?.interval).toBe(19);
      expect(s.last?.threads.map((t) => t.thread)).toEqual([0, 1, 2]);
      expect(s.last?.endUs).toBeCloseTo(result.makespanUs, 6);
      s.computeUs.forEach((us, t) => expect(us).toBeCloseTo(result.workers[t].busyUs, 6));
      s.waitUs.forEach((us, t) => expect(us).toBeCloseTo(result.workers[t].idleUs, 6));
      s.coreComputeUs.forEach((us, c) => expect(us).toBeCloseTo(result.coreBusyUs![c], 6));
    }
  },
);

test('packed 3 on 2: the last interval shows core 0 with two threads that both compute to the end', () => {
  const tracker = new BarrierTracker(3);
  tracker.advance(twinEvents('packed').events);
  const last = tracker.snapshot().last!;
  expect(last.threads.map((t) => t.core)).toEqual([0, 1, 0]);
  const length = last.endUs - last.startUs;
  expect(length).toBeCloseTo(2000, 6);
  // The lone thread on core 1 waits half the interval; core 0's pair hardly waits.
  expect(last.threads[1].passUs - last.threads[1].arriveUs).toBeCloseTo(1000, 6);
  expect(last.threads[0].stretches.length).toBeGreaterThan(1);
});

test('an interval missing a thread (records lost) is skipped, later ones still complete', () => {
  const { events } = twinEvents('packed');
  const lost = events.filter((e) => !(e.item === 3 && e.worker === 1));
  const tracker = new BarrierTracker(3);
  tracker.advance(lost);
  expect(tracker.snapshot().intervals).toBe(19);
  expect(tracker.snapshot().last?.interval).toBe(19);
});
