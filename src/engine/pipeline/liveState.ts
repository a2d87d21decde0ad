// Folds telemetry events into what the views draw: per-worker lanes of busy / idle / blocked /
// stealing over a sliding window, threads busy per stage, each worker's stage, deque lengths and
// recent steals. Pure and incremental (one call per frame with that frame's events).
import type { TelemetryEvent } from '../../telemetry';

export type LaneState = 'busy' | 'idle' | 'blocked' | 'stealing';

export interface LaneSegment {
  startUs: number;
  endUs: number;
  state: LaneState;
  stage: number | null;
}

export interface LiveState {
  /** index = worker; the last segment of each lane is open (ends at nowUs). */
  lanes: LaneSegment[][];
  busyByStage: number[];
  workerStage: Array<number | null>;
  dequeLengths: number[];
  /** Successful steals, newest last, with the run time they happened. */
  steals: Array<{ thief: number; victim: number; timeUs: number }>;
  stealCount: number;
  nowUs: number;
}

export function emptyLiveState(workers: number, stages: number): LiveState {
  return {
    lanes: Array.from({ length: workers }, () => [
      { startUs: 0, endUs: 0, state: 'idle', stage: null },
    ]),
    busyByStage: new Array<number>(stages).fill(0),
    workerStage: new Array<number | null>(workers).fill(null),
    dequeLengths: new Array<number>(workers).fill(0),
    steals: [],
    stealCount: 0,
    nowUs: 0,
  };
}

/** The lane state an event puts its worker in (null: the event does not change it). */
function stateAfter(e: TelemetryEvent): { state: LaneState; stage: number | null } | null {
  switch (e.kind) {
    case 'start':
      return { state: 'busy', stage: e.stage };
    case 'end':
    case 'idle':
    case 'blocked-empty': // waiting for input: the stage has nothing to do — a bubble
      return { state: 'idle', stage: null };
    case 'blocked-full': // finished an item but the next queue is full
      return { state: 'blocked', stage: e.stage };
    case 'steal-attempt':
      return { state: 'stealing', stage: null };
    default:
      return null;
  }
}

/**
 * Applies one frame's events (time order) and trims history older than `windowUs` before `nowUs`.
 * Returns a new state; the input is not modified.
 */
export function advanceLiveState(
  prev: LiveState,
  events: TelemetryEvent[],
  nowUs: number,
  windowUs: number,
): LiveState {
  const lanes = prev.lanes.map((lane) => lane.slice());
  const workerStage = prev.workerStage.slice();
  const dequeLengths = prev.dequeLengths.slice();
  const steals = prev.steals.slice();
  let stealCount = prev.stealCount;
  for (const e of events) {
    const lane = lanes[e.worker];
    if (!lane) continue;
    if (e.kind === 'enqueue' || e.kind === 'dequeue') dequeLengths[e.worker] = e.arg;
    if (e.kind === 'steal-success') {
      stealCount++;
      steals.push({ thief: e.worker, victim: e.arg, timeUs: e.timeUs });
      if (dequeLengths[e.arg] > 0) dequeLengths[e.arg]--;
    }
    const next = stateAfter(e);
    if (!next) continue;
    const open = lane[lane.length - 1];
    if (open.state === next.state && open.stage === next.stage) continue;
    lane[lane.length - 1] = { ...open, endUs: e.timeUs };
    lane.push({ startUs: e.timeUs, endUs: e.timeUs, state: next.state, stage: next.stage });
    workerStage[e.worker] = next.state === 'busy' ? next.stage : null;
  }
  const fromUs = nowUs - windowUs;
  for (let w = 0; w < lanes.length; w++) {
    const lane = lanes[w];
    const last = lane[lane.length - 1];
    lane[lane.length - 1] = { ...last, endUs: Math.max(last.endUs, nowUs) };
    let first = 0;
    while (first < lane.length - 1 && lane[first].endUs < fromUs) first++;
    if (first > 0) lanes[w] = lane.slice(first);
  }
  while (steals.length && steals[0].timeUs < fromUs) steals.shift();
  const busyByStage = new Array<number>(prev.busyByStage.length).fill(0);
  for (const s of workerStage) if (s !== null && s < busyByStage.length) busyByStage[s]++;
  return { lanes, busyByStage, workerStage, dequeLengths, steals, stealCount, nowUs };
}
