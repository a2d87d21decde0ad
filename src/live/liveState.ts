// Folds telemetry events into what the views draw: per-worker lanes of busy / idle / blocked /
// stealing over a sliding window, threads busy per stage, each worker's stage, deque lengths,
// recent steals and the two-stage output's buffer pool (bufferPool.ts). Lanes are accumulated
// into fixed time buckets (about one per pixel): each bucket keeps how long its worker spent in
// each state, and a lane is drawn as columns holding each state's share of the column's time
// (laneColumns.ts). So the cost per frame is bounded however fast events arrive — µs-long services
// would otherwise become tens of thousands of SVG rectangles per frame — and short frequent work
// keeps its share: drawn as each bucket's dominant state, a writer busy 2 µs in every 10 vanished.
// Besides the sliding window the tracker keeps the whole run at a coarser grain (runHistory.ts), so
// a finished run can be looked at end to end, not only its last seconds.
import type { TelemetryEvent } from '../telemetry';
import { BatchQueueTracker, type BatchQueueSnapshot } from './batchQueueState';
import { BufferPoolTracker, type BufferPoolSnapshot } from './bufferPool';
import { laneColumns, type LaneSegment, type LaneState } from './laneColumns';
import { RunHistory } from './runHistory';

export type { LaneSegment, LaneState } from './laneColumns';

export interface LiveState {
  /** index = worker; segments in time order covering the window up to lanesNowUs. */
  lanes: LaneSegment[][];
  /** The run time the lanes were drawn up to (lanes may be refreshed less often than nowUs). */
  lanesNowUs: number;
  busyByStage: number[];
  workerStage: Array<number | null>;
  dequeLengths: number[];
  /**
   * Successful steals in the last STEAL_WINDOW_US, one entry per (thief, victim) pair: the newest
   * steal's run time and how many there were. Per pair, because µs-scale stages steal tens of
   * thousands of times a second — one arrow each would be thousands of SVG paths per frame.
   */
  steals: RecentSteal[];
  stealCount: number;
  nowUs: number;
  /** The first BatchQueue link's real indices (batchQueueState.ts), when the run has one. */
  batchQueue: BatchQueueSnapshot | null;
  /** The two-stage output's buffer pool (bufferPool.ts); null for runtimes without one. */
  bufferPool: BufferPoolSnapshot | null;
  /** The whole run's lanes at a coarser grain, asked for with `snapshot(…, true)` (a run that
   * ended or paused), else null. */
  history: { lanes: LaneSegment[][]; nowUs: number } | null;
}

export interface RecentSteal {
  thief: number;
  victim: number;
  timeUs: number;
  count: number;
}

/** How long a steal stays in LiveState.steals (the steal view fades its arrow over this span). */
export const STEAL_WINDOW_US = 1_000_000;
/** Steals of one pair inside one slot of this many µs share a record: memory stays bounded. */
const STEAL_SLOT_US = 10_000;

/** Slots per bucket: busy in stage s (s < stages), then idle, blocked, stealing, ready. */
const IDLE = 0;
const BLOCKED = 1;
const STEALING = 2;
const READY = 3;
/** The lane state of each slot after the stages', in slot order. */
const WAIT_STATES = ['idle', 'blocked', 'stealing', 'ready'] as const;

/**
 * The lane slot an event puts its worker in (null: the event does not change it).
 * `slicedEnds`: the barrier runtime's events (contracts/telemetry.md), where an `end` closes one
 * computing stretch of a thread's share of the interval — its core (explicit packing's round-robin
 * or the twin's OS) moved on to a neighbour — so the thread is READY, waiting for a core, until its
 * next `start`; after its last stretch, `barrier-arrive` comes at the same instant. Elsewhere an
 * `end` finishes an item and the worker is idle until it finds the next.
 */
function slotAfter(
  e: Pick<TelemetryEvent, 'kind' | 'stage'>,
  stages: number,
  slicedEnds: boolean,
): number | null {
  switch (e.kind) {
    case 'start':
      return e.stage < stages ? e.stage : null;
    case 'end':
      return stages + (slicedEnds ? READY : IDLE);
    case 'idle':
    case 'blocked-empty': // waiting for input: the stage has nothing to do — a bubble
    case 'barrier-arrive': // waiting at the barrier for the others
      return stages + IDLE;
    case 'blocked-full': // finished an item but the next queue is full
      return stages + BLOCKED;
    case 'steal-attempt':
      return stages + STEALING;
    default:
      return null;
  }
}

/** The lane state an event puts its worker in (null: the event does not change it) — the one
 * reading of events as states, shared with exports that draw the same lanes elsewhere. */
export function laneStateAfter(
  e: Pick<TelemetryEvent, 'kind' | 'stage'>,
  stages: number,
  slicedEnds = false,
): { state: LaneState; stage: number | null } | null {
  const slot = slotAfter(e, stages, slicedEnds);
  if (slot === null) return null;
  return slot < stages
    ? { state: 'busy', stage: slot }
    : { state: WAIT_STATES[slot - stages], stage: null };
}

export class LiveStateTracker {
  private readonly slots: number;
  private readonly bucketUs: number;
  /** [worker][bucket % buckets][slot] → µs spent. */
  private readonly time: Float64Array[];
  private readonly slotOf: Int32Array;
  private readonly sinceUs: Float64Array;
  private newestBucket = 0;
  private readonly dequeLengths: number[];
  /** Steal records, oldest first; each holds one pair's steals within one STEAL_SLOT_US slot. */
  private steals: Array<RecentSteal & { slot: number }> = [];
  private stealCount = 0;
  private nowUs = 0;
  private readonly pool = new BufferPoolTracker();
  private readonly history: RunHistory;

  private readonly batch: BatchQueueTracker | null;

  constructor(
    readonly workers: number,
    readonly stages: number,
    readonly windowUs: number,
    readonly buckets = 450,
    /** The run's first link is a BatchQueue: its semi-buffer and item size, for its indices. */
    batchLink: { semiItems: number; itemBytes: number } | null = null,
    /** The barrier runtime's events: an `end` leaves the thread ready (see slotAfter). */
    readonly slicedEnds = false,
  ) {
    this.batch = batchLink ? new BatchQueueTracker(batchLink.semiItems, batchLink.itemBytes) : null;
    this.slots = stages + WAIT_STATES.length;
    this.bucketUs = windowUs / buckets;
    this.time = Array.from({ length: workers }, () => new Float64Array(buckets * this.slots));
    this.slotOf = new Int32Array(workers).fill(stages + IDLE);
    this.sinceUs = new Float64Array(workers);
    this.dequeLengths = new Array<number>(workers).fill(0);
    this.history = new RunHistory(workers, this.slots, stages, WAIT_STATES, this.bucketUs);
  }

  /** Applies one frame's events (time order) and moves the clock to nowUs; dropped: the records
   * the rings had dropped so far (TapFrame.dropped). */
  advance(events: TelemetryEvent[], nowUs: number, dropped = 0): void {
    this.batch?.advance(events, dropped);
    for (const e of events) {
      if (e.worker >= this.workers) continue;
      this.pool.apply(e);
      if (e.kind === 'enqueue' || e.kind === 'dequeue') this.dequeLengths[e.worker] = e.arg;
      if (e.kind === 'steal-success') {
        this.stealCount++;
        this.recordSteal(e.worker, e.arg, e.timeUs);
        if (this.dequeLengths[e.arg] > 0) this.dequeLengths[e.arg]--;
      }
      const slot = slotAfter(e, this.stages, this.slicedEnds);
      if (slot === null || slot === this.slotOf[e.worker]) continue;
      this.account(e.worker, e.timeUs);
      this.slotOf[e.worker] = slot;
    }
    this.nowUs = Math.max(this.nowUs, nowUs);
    for (let w = 0; w < this.workers; w++) this.account(w, this.nowUs);
    const fromUs = this.nowUs - STEAL_WINDOW_US;
    let old = 0;
    while (old < this.steals.length && this.steals[old].timeUs < fromUs) old++;
    if (old) this.steals.splice(0, old);
  }

  /**
   * The state now. `previous` lets a caller reuse its lanes (same array, so a memoized timeline
   * skips the frame): building lanes is the costly part, and a scrolling timeline reads fine at
   * 10 Hz while the pipeline view updates every frame. `withHistory` adds the whole run's lanes
   * (for a run that ended or paused: they are rebuilt only when the clock moved).
   */
  snapshot(previous?: Pick<LiveState, 'lanes' | 'lanesNowUs'>, withHistory = false): LiveState {
    const busyByStage = new Array<number>(this.stages).fill(0);
    const workerStage = Array.from(this.slotOf, (slot) => (slot < this.stages ? slot : null));
    for (const s of workerStage) if (s !== null) busyByStage[s]++;
    return {
      lanes: previous?.lanes ?? Array.from({ length: this.workers }, (_, w) => this.lane(w)),
      lanesNowUs: previous?.lanesNowUs ?? this.nowUs,
      busyByStage,
      workerStage,
      dequeLengths: this.dequeLengths.slice(),
      steals: this.recentSteals(),
      stealCount: this.stealCount,
      nowUs: this.nowUs,
      batchQueue: this.batch?.snapshot() ?? null,
      bufferPool: this.pool.snapshot(),
      history: withHistory ? { lanes: this.history.lanes(this.nowUs), nowUs: this.nowUs } : null,
    };
  }

  private recordSteal(thief: number, victim: number, timeUs: number): void {
    const slot = Math.floor(timeUs / STEAL_SLOT_US);
    // Records of the current slot sit at the end: at most one per pair.
    for (let k = this.steals.length - 1; k >= 0 && this.steals[k].slot === slot; k--) {
      const r = this.steals[k];
      if (r.thief === thief && r.victim === victim) {
        r.count++;
        r.timeUs = Math.max(r.timeUs, timeUs);
        return;
      }
    }
    this.steals.push({ thief, victim, timeUs, count: 1, slot });
  }

  /** One entry per pair, ordered by each pair's newest steal, oldest first. */
  private recentSteals(): RecentSteal[] {
    const byPair = new Map<number, RecentSteal>();
    for (const r of this.steals) {
      const key = r.thief * this.workers + r.victim;
      const seen = byPair.get(key);
      if (seen) {
        seen.count += r.count;
        seen.timeUs = Math.max(seen.timeUs, r.timeUs);
      } else
        byPair.set(key, { thief: r.thief, victim: r.victim, timeUs: r.timeUs, count: r.count });
    }
    return [...byPair.values()].sort((a, b) => a.timeUs - b.timeUs);
  }

  /** Adds [sinceUs, untilUs) of the worker's current slot to the buckets it covers. */
  private account(w: number, untilUs: number): void {
    let t = this.sinceUs[w];
    if (untilUs <= t) return;
    this.history.add(w, this.slotOf[w], t, untilUs);
    this.reach(Math.floor(untilUs / this.bucketUs));
    const oldest = (this.newestBucket - this.buckets + 1) * this.bucketUs;
    t = Math.max(t, oldest);
    const slot = this.slotOf[w];
    const row = this.time[w];
    // Step by bucket index, not by recomputing floor(t / bucketUs): with a non-integer bucket
    // width that can land in the same bucket again and never advance.
    for (let b = Math.floor(t / this.bucketUs); t < untilUs; b++) {
      const end = Math.min(untilUs, (b + 1) * this.bucketUs);
      if (end > t) row[(b % this.buckets) * this.slots + slot] += end - t;
      t = end;
    }
    this.sinceUs[w] = untilUs;
  }

  /** Moves the newest bucket forward, clearing the slots that now hold a new time span. */
  private reach(bucket: number): void {
    if (bucket <= this.newestBucket) return;
    const first = Math.max(this.newestBucket + 1, bucket - this.buckets + 1);
    for (let b = first; b <= bucket; b++) {
      const at = (b % this.buckets) * this.slots;
      for (const row of this.time) row.fill(0, at, at + this.slots);
    }
    this.newestBucket = bucket;
  }

  private lane(w: number): LaneSegment[] {
    return laneColumns({
      row: this.time[w],
      slots: this.slots,
      stages: this.stages,
      waitStates: WAIT_STATES,
      first: Math.max(0, this.newestBucket - this.buckets + 1),
      last: this.newestBucket,
      ring: this.buckets,
      bucketUs: this.bucketUs,
      nowUs: this.nowUs,
    });
  }
}
