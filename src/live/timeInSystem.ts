// Little's law from telemetry: how many items are inside the pipeline on average (L), how fast they
// leave (λ) and how long each one stays (W), read from the same start/end events on real threads
// and on the twin, so L and λ·W can be compared on the learner's own cores.
//
// Choices (the seeds do not define a window, so they are ours, tested in
// tests/unit/live/timeInSystem.test.ts):
// - An item enters when the first stage starts serving it and leaves when the last stage ends it:
//   the source in front of stage 0 is not part of the system (in a closed loop it never runs out).
// - The window is the run's steady part: from the exit of the item at `from` (10%) of the exits to
//   the one at `to` (90%), as SimResult's steady throughput. Over a whole run that starts and ends
//   empty L = λ·W holds exactly (both sides are the same sum of stays), so checking it there would
//   test nothing; inside a window items enter before it and leave after it, and the law holds only
//   as closely as the window is steady.
// - λ counts the exits inside the window, W averages the stays of the items that leave inside it,
//   L integrates the items inside over it (stays clipped to the window).
// - An exit without an entry is counted in `unpaired` and left out; an entry without an exit is an
//   item still inside when the events end. A ring that dropped events is cut off at its
//   `coveredToUs`, so that every exit before the cut was seen. Stages that emit several items or
//   let some bypass change what one item is: runtimes/inSystem.ts refuses them.
import { readRing, type TelemetryEvent, type TelemetryTap } from '../telemetry';

export interface InSystem {
  /** Items that left inside the window. */
  items: number;
  /** Mean items inside the pipeline over the window (L). */
  meanInFlight: number;
  /** The most items inside at once over the whole run. */
  maxInFlight: number;
  /** Exits per µs inside the window (λ). */
  throughputPerUs: number;
  /** Mean µs from entering to leaving, of the items that left inside the window (W). */
  meanTimeInSystemUs: number;
  windowUs: number;
  /** Exits without an entry (their entry was not seen). */
  unpaired: number;
  /** Items that entered and had not left when the events end (inside until then). */
  stillInside: number;
}

export interface InSystemOptions {
  /** Index of the last stage: its `end` is an exit. */
  lastStage: number;
  /** The window, as fractions of the exits (default 0.1 and 0.9). */
  from?: number;
  to?: number;
  /** Ignore events after this run time (a ring that dropped its newest events covers no more). */
  coveredToUs?: number;
}

/** The fields of an event the count reads (the twin's sink events have no `seq`). */
export type StayEvent = Pick<TelemetryEvent, 'kind' | 'stage' | 'item' | 'timeUs'>;

/** L, λ and W over the steady window of a run's events; null when fewer than 10 items paired. */
export function inSystem(events: Iterable<StayEvent>, options: InSystemOptions): InSystem | null {
  const { lastStage, from = 0.1, to = 0.9, coveredToUs = Infinity } = options;
  if (!(from >= 0 && from < to && to <= 1))
    throw new RangeError(`inSystem: window ${from}..${to} is not inside 0..1 with from < to`);
  const entered = new Map<number, number>();
  const stays: Array<[number, number]> = [];
  let unpaired = 0;
  for (const e of events) {
    if (e.timeUs > coveredToUs) continue;
    if (e.kind === 'start' && e.stage === 0 && !entered.has(e.item)) entered.set(e.item, e.timeUs);
    else if (e.kind === 'end' && e.stage === lastStage) {
      const t = entered.get(e.item);
      if (t === undefined) unpaired++;
      else {
        stays.push([t, e.timeUs]);
        entered.delete(e.item);
      }
    }
  }
  if (stays.length < 10) return null;

  const exits = stays.map(([, out]) => out).sort((a, b) => a - b);
  const at = (f: number) => exits[Math.min(exits.length - 1, Math.floor(f * (exits.length - 1)))];
  const t0 = at(from);
  const t1 = at(to);
  const windowUs = t1 - t0;
  if (!(windowUs > 0)) return null;

  let leaving = 0;
  let staySum = 0;
  let insideUs = 0;
  for (const [inUs, outUs] of stays) {
    if (outUs > t0 && outUs <= t1) {
      leaving++;
      staySum += outUs - inUs;
    }
    insideUs += Math.max(0, Math.min(outUs, t1) - Math.max(inUs, t0));
  }
  // An item that entered and was not seen leaving is inside until after the window ends: every
  // exit up to the window's end (the last paired exit at most) was seen.
  for (const inUs of entered.values()) insideUs += Math.max(0, t1 - Math.max(inUs, t0));
  return {
    items: leaving,
    meanInFlight: insideUs / windowUs,
    maxInFlight: maxInside(stays),
    throughputPerUs: leaving / windowUs,
    meanTimeInSystemUs: leaving ? staySum / leaving : NaN,
    windowUs,
    unpaired,
    stillInside: entered.size,
  };
}

/** The most stays overlapping at one time (an exit at t is counted before an entry at t). */
function maxInside(stays: ReadonlyArray<[number, number]>): number {
  const edges = stays.flatMap(([i, o]) => [
    [i, 1],
    [o, -1],
  ]);
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let now = 0;
  let most = 0;
  for (const [, d] of edges) most = Math.max(most, (now += d));
  return most;
}

/** The same from a finished run's tap (real threads): each ring that dropped events (a full ring
 * drops the newest) covers the run only up to its last stored event, so the count stops at the
 * earliest such end, where every ring still holds everything. */
export function tapInSystem(tap: TelemetryTap, lastStage: number): InSystem | null {
  const events: TelemetryEvent[] = [];
  let coveredToUs = Infinity;
  for (const offset of tap.ringOffsets) {
    const ring = readRing(tap.buffer, offset);
    for (const e of ring.events) events.push(e);
    const last = ring.events.at(-1);
    if (ring.dropped > 0 && last) coveredToUs = Math.min(coveredToUs, last.timeUs);
  }
  return inSystem(events, { lastStage, coveredToUs });
}
