// Decoded barrier-runtime events (contracts/telemetry.md: start/end per computing stretch,
// barrier-arrive, barrier-pass; item = interval, arg = core or NO_CORE) → what the packing grid
// draws: the last interval every thread has passed, thread by thread (its computing stretches, its
// arrival, its pass, the core it ran on), and totals over the run — each thread's computing and
// barrier-wait time, each core's computing time. Events may come split across frames and threads
// may be one interval apart in them; an interval is complete once every thread has passed it.
import { NO_CORE, type TelemetryEvent } from '../telemetry';

export interface ThreadInterval {
  thread: number;
  /** The core it ran on (the last stretch's), or null when the OS placed it unseen. */
  core: number | null;
  /** Run-clock µs: when it passed the previous barrier (0 for the first interval). */
  fromUs: number;
  /** Its computing stretches in run-clock µs, each with the core it ran on (null: unseen). */
  stretches: Array<{ startUs: number; endUs: number; core: number | null }>;
  arriveUs: number;
  passUs: number;
}

export interface IntervalRecord {
  interval: number;
  /** The earliest thread's start (its previous pass) and the last pass, run-clock µs. */
  startUs: number;
  endUs: number;
  threads: ThreadInterval[];
}

export interface BarrierSnapshot {
  /** The newest interval every thread has passed, or null before the first. */
  last: IntervalRecord | null;
  /** Intervals every thread has passed so far. */
  intervals: number;
  /** Per thread over the completed intervals: µs computing, µs waiting at the barrier. */
  computeUs: number[];
  waitUs: number[];
  /** Per core over the completed intervals: µs computing (empty when no event named a core). */
  coreComputeUs: number[];
}

interface Partial {
  threads: Map<number, ThreadInterval>;
}

export class BarrierTracker {
  private readonly open = new Map<number, Partial>();
  /** Per thread: when it passed the latest barrier (0 before the first). */
  private readonly fromUs: Float64Array;
  private last: IntervalRecord | null = null;
  private intervals = 0;
  private readonly computeUs: number[];
  private readonly waitUs: number[];
  private readonly coreComputeUs: number[] = [];

  constructor(readonly threads: number) {
    this.fromUs = new Float64Array(threads);
    this.computeUs = new Array<number>(threads).fill(0);
    this.waitUs = new Array<number>(threads).fill(0);
  }

  /** Applies one frame's events (time order). */
  advance(events: TelemetryEvent[]): void {
    for (const e of events) {
      if (e.worker >= this.threads) continue;
      const t = this.entry(e);
      if (!t) continue;
      const core = e.arg === NO_CORE ? null : e.arg;
      if (core !== null) t.core = core;
      if (e.kind === 'start') t.stretches.push({ startUs: e.timeUs, endUs: e.timeUs, core });
      else if (e.kind === 'end') {
        const open = t.stretches[t.stretches.length - 1];
        if (open) open.endUs = e.timeUs;
      } else if (e.kind === 'barrier-arrive') t.arriveUs = e.timeUs;
      else if (e.kind === 'barrier-pass') this.passed(e, t);
    }
  }

  snapshot(): BarrierSnapshot {
    return {
      last: this.last,
      intervals: this.intervals,
      computeUs: this.computeUs.slice(),
      waitUs: this.waitUs.slice(),
      coreComputeUs: this.coreComputeUs.slice(),
    };
  }

  /** The thread's record for the event's interval (null for an interval already dropped). */
  private entry(e: TelemetryEvent): ThreadInterval | null {
    const k = e.item;
    if (this.last && k <= this.last.interval) return null;
    let partial = this.open.get(k);
    if (!partial) {
      partial = { threads: new Map() };
      this.open.set(k, partial);
    }
    let t = partial.threads.get(e.worker);
    if (!t) {
      t = {
        thread: e.worker,
        core: null,
        fromUs: this.fromUs[e.worker],
        stretches: [],
        arriveUs: NaN,
        passUs: NaN,
      };
      partial.threads.set(e.worker, t);
    }
    return t;
  }

  private passed(e: TelemetryEvent, t: ThreadInterval): void {
    t.passUs = e.timeUs;
    this.fromUs[e.worker] = e.timeUs;
    const partial = this.open.get(e.item)!;
    const done = [...partial.threads.values()].filter((x) => !Number.isNaN(x.passUs));
    if (done.length < this.threads) return;
    const threads = done.sort((a, b) => a.thread - b.thread);
    for (const x of threads) {
      for (const { startUs, endUs, core } of x.stretches) {
        this.computeUs[x.thread] += endUs - startUs;
        if (core === null) continue;
        while (this.coreComputeUs.length <= core) this.coreComputeUs.push(0);
        this.coreComputeUs[core] += endUs - startUs;
      }
      this.waitUs[x.thread] += Number.isNaN(x.arriveUs) ? 0 : x.passUs - x.arriveUs;
    }
    this.last = {
      interval: e.item,
      startUs: Math.min(...threads.map((x) => x.fromUs)),
      endUs: Math.max(...threads.map((x) => x.passUs)),
      threads,
    };
    this.intervals++;
    // Anything older is complete or can no longer complete (records dropped from a full ring).
    for (const k of this.open.keys()) if (k <= e.item) this.open.delete(k);
  }
}
