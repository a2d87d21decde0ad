// Telemetry folded into what the views draw: lanes per worker (bucketed, each state's share per
// bucket), busy threads per stage, steals and deque lengths; bounded output however many events.
import { expect, test } from 'vitest';
import { LiveStateTracker, STEAL_WINDOW_US } from '../../../src/live/liveState';
import type { TelemetryEvent } from '../../../src/telemetry';

let seq = 0;
const ev = (
  timeUs: number,
  worker: number,
  kind: TelemetryEvent['kind'],
  stage = 0xff,
  arg = 0,
): TelemetryEvent => ({
  timeUs,
  worker,
  kind,
  stage,
  arg,
  item: 0,
  seq: seq++,
});
const simple = (lane: { state: string; startUs: number; endUs: number; stage: number | null }[]) =>
  lane.map((x) => [x.state, x.stage, x.startUs, x.endUs]);

test('start/end make busy and idle runs; busy threads are counted per stage', () => {
  const t = new LiveStateTracker(2, 2, 1000, 100); // 10 µs buckets
  t.advance([ev(10, 0, 'start', 1), ev(20, 1, 'start', 1)], 30);
  expect(t.snapshot().busyByStage).toEqual([0, 2]);
  expect(t.snapshot().workerStage).toEqual([1, 1]);
  t.advance([ev(40, 0, 'end', 1), ev(50, 1, 'blocked-full', 1)], 60);
  const s = t.snapshot();
  expect(s.busyByStage).toEqual([0, 0]);
  expect(simple(s.lanes[0])).toEqual([
    ['idle', null, 0, 10],
    ['busy', 1, 10, 40],
    ['idle', null, 40, 60],
  ]);
  expect(simple(s.lanes[1]).at(-1)).toEqual(['blocked', null, 50, 60]);
});

test("a barrier run's thread is ready between its stretches, then waits at the barrier", () => {
  // Its core ran a neighbour from 30 to 60; its last stretch ends as it arrives, at 80.
  const events = [
    ev(10, 0, 'start', 0),
    ev(30, 0, 'end', 0),
    ev(60, 0, 'start', 0),
    ev(80, 0, 'end', 0),
    ev(80, 0, 'barrier-arrive', 0),
  ];
  const barrier = new LiveStateTracker(1, 1, 1000, 100, null, true);
  barrier.advance(events, 100);
  expect(simple(barrier.snapshot().lanes[0])).toEqual([
    ['idle', null, 0, 10],
    ['busy', 0, 10, 30],
    ['ready', null, 30, 60],
    ['busy', 0, 60, 80],
    ['idle', null, 80, 100],
  ]);
  // The pipelines' `end` finishes an item: the same events read as idle there.
  const pipeline = new LiveStateTracker(1, 1, 1000, 100);
  pipeline.advance(events, 100);
  expect(simple(pipeline.snapshot().lanes[0]).map((l) => l[0])).toEqual([
    'idle',
    'busy',
    'idle',
    'busy',
    'idle',
  ]);
});

test("a bucket shows each state's share of its time, busy at the floor", () => {
  const t = new LiveStateTracker(1, 1, 1000, 10); // 100 µs buckets
  t.advance(
    [ev(0, 0, 'start', 0), ev(70, 0, 'end', 0), ev(100, 0, 'start', 0), ev(120, 0, 'end', 0)],
    200,
  );
  // Drawn as the dominant state, the second bucket was all idle and its 20 µs of work vanished.
  expect(t.snapshot().lanes[0].map((x) => [x.state, x.startUs, x.endUs, x.share])).toEqual([
    ['busy', 0, 100, 0.7],
    ['idle', 0, 100, expect.closeTo(0.3, 9)],
    ['busy', 100, 200, 0.2],
    ['idle', 100, 200, 0.8],
  ]);
});

test('neighbouring buckets with about the same shares merge, keeping the total time exact', () => {
  const t = new LiveStateTracker(1, 1, 2000, 20); // 100 µs buckets
  // 5 µs of work in every 100 µs, then 7 µs: shares 5% and 7% merge (within MERGE_SHARE).
  const events: TelemetryEvent[] = [];
  for (let k = 0; k < 10; k++)
    events.push(ev(k * 100 + 10, 0, 'start', 0), ev(k * 100 + 10 + (k < 5 ? 5 : 7), 0, 'end', 0));
  t.advance(events, 1000);
  const lane = t.snapshot().lanes[0];
  expect(lane.map((x) => [x.state, x.startUs, x.endUs])).toEqual([
    ['busy', 0, 1000],
    ['idle', 0, 1000],
  ]);
  expect(lane[0].share).toBeCloseTo(0.06, 9);
});

test('the window slides: older time falls out; the output stays bounded', () => {
  const t = new LiveStateTracker(1, 1, 1000, 100);
  const events: TelemetryEvent[] = [];
  for (let k = 0; k < 50_000; k++) events.push(ev(k * 2, 0, k % 2 ? 'end' : 'start', 0));
  t.advance(events, 100_000);
  const lane = t.snapshot().lanes[0];
  expect(lane[0].startUs).toBeGreaterThanOrEqual(99_000);
  // At most one column per bucket (its parts share its bounds), one part per state.
  expect(new Set(lane.map((x) => x.startUs)).size).toBeLessThanOrEqual(100);
  expect(lane.length).toBeLessThanOrEqual(200);
  expect(lane.at(-1)!.endUs).toBe(100_000);
});

test('steals are recorded with thief and victim; deque lengths follow enqueue/dequeue', () => {
  const t = new LiveStateTracker(3, 1, 1000, 100);
  t.advance(
    [
      ev(1, 0, 'enqueue', 0, 1),
      ev(2, 0, 'enqueue', 0, 2),
      ev(3, 2, 'steal-attempt', 0xff, 0),
      ev(4, 2, 'steal-success', 0, 0),
    ],
    5,
  );
  const s = t.snapshot();
  expect(s.stealCount).toBe(1);
  expect(s.steals).toEqual([{ thief: 2, victim: 0, timeUs: 4, count: 1 }]);
  expect(s.dequeLengths).toEqual([1, 0, 0]);
  t.advance([], STEAL_WINDOW_US + 5);
  expect(t.snapshot().steals).toEqual([]);
  expect(t.snapshot().stealCount).toBe(1);
});

test('a bucket width that is not a whole number of µs still advances (no endless loop)', () => {
  const t = new LiveStateTracker(1, 1, 2_000_000, 900); // 2222.2… µs buckets
  const events: TelemetryEvent[] = [];
  for (let k = 0; k < 10_000; k++)
    events.push(ev(k * 2222.2222222222, 0, k % 2 ? 'end' : 'start', 0));
  t.advance(events, 25_000_000);
  expect(t.snapshot().lanes[0].at(-1)!.endUs).toBe(25_000_000);
});

test('steals aggregate per pair with their count and newest time; old ones leave', () => {
  const t = new LiveStateTracker(3, 1, 2_000_000, 100);
  const events: TelemetryEvent[] = [];
  // 100k steals over 0.5 s alternating between two pairs: a µs-scale work-stealing run.
  for (let k = 0; k < 100_000; k++)
    events.push(ev(k * 5, k % 2, 'steal-success', 0xff, 1 - (k % 2)));
  t.advance(events, 500_000);
  const s = t.snapshot();
  expect(s.stealCount).toBe(100_000);
  expect(s.steals).toEqual([
    { thief: 0, victim: 1, timeUs: 499_990, count: 50_000 },
    { thief: 1, victim: 0, timeUs: 499_995, count: 50_000 },
  ]);
  // 0.7 s later the first 0.2 s of steals are older than the window.
  t.advance([ev(1_200_000, 2, 'steal-success', 0xff, 0)], 1_200_000);
  const later = t.snapshot().steals;
  expect(later.map((x) => [x.thief, x.victim])).toEqual([
    [0, 1],
    [1, 0],
    [2, 0],
  ]);
  const counted = later[0].count + later[1].count;
  expect(counted).toBeGreaterThan(55_000);
  expect(counted).toBeLessThan(65_000);
});
