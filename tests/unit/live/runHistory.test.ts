// The whole run's lanes (issue 39: not only the last ~2 s): a tracker whose live window is 2 s
// keeps a 30 s run end to end in its history, at a grain that coarsens as the run grows, with
// every state's total time kept exactly and memory bounded.
import { expect, test } from 'vitest';
import { LiveStateTracker } from '../../../src/live/liveState';
import { RunHistory } from '../../../src/live/runHistory';
import type { TelemetryEvent } from '../../../src/telemetry';

let seq = 0;
const ev = (timeUs: number, kind: TelemetryEvent['kind']): TelemetryEvent => ({
  timeUs,
  worker: 0,
  kind,
  stage: 0,
  arg: 0,
  item: 0,
  seq: seq++,
});

const busyUs = (lane: Array<{ startUs: number; endUs: number; state: string; share?: number }>) =>
  lane
    .filter((s) => s.state === 'busy')
    .reduce((a, s) => a + (s.endUs - s.startUs) * (s.share ?? 1), 0);

test('a 30 s run is kept from its start; its busy time is exact; the live lanes keep 2 s', () => {
  const t = new LiveStateTracker(1, 1, 2_000_000, 450);
  // Busy the first 10 s a quarter of the time, then half the time: 2.5 s + 10 s busy.
  for (let frame = 0; frame < 300; frame++) {
    const events: TelemetryEvent[] = [];
    const at = frame * 100_000;
    const work = at < 10_000_000 ? 250 : 500;
    for (let k = 0; k < 100; k++)
      events.push(ev(at + k * 1000, 'start'), ev(at + k * 1000 + work, 'end'));
    t.advance(events, at + 100_000);
  }
  const s = t.snapshot(undefined, true);
  expect(s.lanes[0][0].startUs).toBeGreaterThanOrEqual(28_000_000);
  const whole = s.history!.lanes[0];
  expect(whole[0].startUs).toBe(0);
  expect(whole.at(-1)!.endUs).toBe(30_000_000);
  expect(busyUs(whole)).toBeCloseTo(12_500_000, -1);
  // The first third reads 25% busy, the rest 50%: the coarse grain keeps where work changed.
  const early = whole.find((x) => x.state === 'busy' && x.endUs <= 10_100_000)!;
  const late = whole.find((x) => x.state === 'busy' && x.startUs >= 10_000_000)!;
  expect(early.share).toBeCloseTo(0.25, 2);
  expect(late.share).toBeCloseTo(0.5, 2);
  // Without asking, no history is built.
  expect(t.snapshot().history).toBeNull();
});

test("the history's memory is bounded: buckets halve as the run grows, never more of them", () => {
  const h = new RunHistory(64, 20, 16, ['idle', 'blocked', 'stealing', 'ready'], 4444);
  h.add(0, 0, 0, 3_600_000_000); // an hour busy
  const lane = h.lanes(3_600_000_000)[0];
  expect(lane).toHaveLength(1);
  expect(lane[0]).toMatchObject({ startUs: 0, endUs: 3_600_000_000, state: 'busy', share: 1 });
});
