// The timeline's legend names the states a run can have: "ready" only where the events can show
// it (explicit packing and the twin's OS write a stretch per time slice, the visitor's OS on real
// threads does not), stealing only for work stealing, blocking on a full queue only without it.
import { expect, test } from 'vitest';
import { seesReadyTime } from '../../../../src/app/lesson/components/TimelineBlock';
import { RUNTIME_MODULES } from '../../../../src/runtimes';
import { barrierSpec } from '../../sim/helpers';
import { shownWindowUs } from '../../../../src/app/lesson/useLessonRun';

test.each([
  ['packed', 'threads', true],
  ['packed', 'simulation', true],
  ['os', 'simulation', true],
  ['os', 'threads', false],
] as const)('schedule %s on %s: ready time seen = %s', (schedule, engine, seen) => {
  const spec = barrierSpec(3, 2, 1000, 2, { schedule });
  expect(seesReadyTime(spec, engine)).toBe(seen);
  expect(RUNTIME_MODULES.barrier.live.laneNames(seen).ready ?? null).toBe(
    seen ? 'ready, its core running a neighbour' : null,
  );
});

test('a pipeline legend leaves out the state its runtime never has', () => {
  expect(RUNTIME_MODULES.static.live.laneNames(true)).toEqual({ stealing: null });
  expect(RUNTIME_MODULES['work-stealing'].live.laneNames(true)).toEqual({ blocked: null });
});

test('a short run fills the timeline; a long one scrolls through 2 s', () => {
  expect(shownWindowUs(0)).toBe(50_000);
  expect(shownWindowUs(150_000)).toBe(150_000);
  expect(shownWindowUs(9_000_000)).toBe(2_000_000);
});
