// Telemetry folded into what the views draw: lanes per worker, busy threads per stage, steals.
import { expect, test } from 'vitest';
import { advanceLiveState, emptyLiveState } from '../../../src/engine/pipeline/liveState';
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

test('start/end make busy and idle segments; busy threads are counted per stage', () => {
  let s = emptyLiveState(2, 2);
  s = advanceLiveState(s, [ev(10, 0, 'start', 1), ev(20, 1, 'start', 1)], 30, 1000);
  expect(s.busyByStage).toEqual([0, 2]);
  expect(s.workerStage).toEqual([1, 1]);
  s = advanceLiveState(s, [ev(40, 0, 'end', 1), ev(45, 1, 'blocked-full', 1)], 50, 1000);
  expect(s.busyByStage).toEqual([0, 0]);
  expect(s.lanes[0].map((x) => [x.state, x.startUs, x.endUs])).toEqual([
    ['idle', 0, 10],
    ['busy', 10, 40],
    ['idle', 40, 50],
  ]);
  expect(s.lanes[1].at(-1)).toMatchObject({ state: 'blocked', stage: 1, startUs: 45, endUs: 50 });
});

test('old segments and steals fall out of the window', () => {
  let s = emptyLiveState(1, 1);
  s = advanceLiveState(
    s,
    [ev(10, 0, 'start', 0), ev(20, 0, 'end', 0), ev(30, 0, 'start', 0)],
    40,
    1000,
  );
  expect(s.lanes[0]).toHaveLength(4);
  s = advanceLiveState(s, [ev(2000, 0, 'end', 0)], 2500, 1000);
  expect(s.lanes[0].every((x) => x.endUs >= 1500)).toBe(true);
  expect(s.lanes[0].at(-1)).toMatchObject({ state: 'idle', endUs: 2500 });
});

test('steals are recorded with thief and victim, deque lengths follow enqueue/dequeue', () => {
  let s = emptyLiveState(3, 1);
  s = advanceLiveState(
    s,
    [
      ev(1, 0, 'enqueue', 0, 1),
      ev(2, 0, 'enqueue', 0, 2),
      ev(3, 2, 'steal-attempt', 0xff, 0),
      ev(4, 2, 'steal-success', 0, 0),
    ],
    5,
    1000,
  );
  expect(s.stealCount).toBe(1);
  expect(s.steals).toEqual([{ thief: 2, victim: 0, timeUs: 4 }]);
  expect(s.dequeLengths).toEqual([1, 0, 0]);
  expect(s.lanes[2].at(-1)).toMatchObject({ state: 'stealing' });
});

test('the input state is not modified', () => {
  const s = emptyLiveState(1, 1);
  const copy = structuredClone(s);
  advanceLiveState(s, [ev(10, 0, 'start', 0)], 20, 1000);
  expect(s).toEqual(copy);
});
