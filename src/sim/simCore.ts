// Shared machinery of the twin: clock, event heap, telemetry, counters and time-shared cores.
import { EventHeap } from './eventHeap';
import { Xoshiro128 } from './prng';
import {
  NO_ITEM,
  emptyCounters,
  type EventKindName,
  type StageCounters,
  type TelemetrySink,
} from './telemetry';

const CORE_EVENT = 0;
const TIMER_EVENT = 1;
const INDEX_RADIX = 65536;

/** What a worker is waiting for, for the idle/blocked counters. */
export const Wait = { None: 0, Idle: 1, Blocked: 2 } as const;
export type WaitKind = (typeof Wait)[keyof typeof Wait];

/**
 * Cores: worker w is pinned to core w mod C, and each core shares itself equally among the workers
 * on it that are in service (processor sharing). Waiting workers (blocked, idle) sleep and use no
 * core. With T threads on C cores the busiest core runs ⌈T/C⌉ threads — the thread-packing model.
 * 'migrating' scheduling instead lets the OS move threads: all C cores are one pool shared
 * equally by every worker in service (each runs at min(1, C / in service) of a core).
 */
export type CoreScheduling = 'pinned' | 'migrating';

export abstract class SimCore {
  nowUs = 0;
  readonly rng: Xoshiro128;
  readonly counters: StageCounters[];
  eventCount = 0;
  private readonly heap = new EventHeap();
  private readonly coreOf: Int32Array;
  /** Cores each entry of coreJobs stands for: 1 when pinned, C for the migrating pool. */
  private readonly coreCapacity: number;
  private readonly coreJobs: number[][];
  private readonly coreSince: Float64Array;
  private readonly coreVersion: Int32Array;
  private readonly remainingUs: Float64Array;
  private readonly serviceStartUs: Float64Array;
  private readonly waitKind: Uint8Array;
  private readonly waitStage: Int32Array;
  private readonly waitSinceUs: Float64Array;
  /** Per worker: wall µs in service, waiting for work (idle) and waiting for space (blocked). */
  readonly workerBusyUs: Float64Array;
  readonly workerIdleUs: Float64Array;
  readonly workerBlockedUs: Float64Array;

  constructor(
    seed: number,
    stageCount: number,
    readonly workerCount: number,
    coreCount: number,
    private readonly sink: TelemetrySink | undefined,
    scheduling: CoreScheduling = 'pinned',
  ) {
    this.rng = new Xoshiro128(seed);
    this.counters = Array.from({ length: stageCount }, emptyCounters);
    const migrating = scheduling === 'migrating';
    const cores = migrating ? 1 : Math.min(coreCount, workerCount);
    this.coreCapacity = migrating ? Math.min(coreCount, workerCount) : 1;
    this.coreOf = Int32Array.from({ length: workerCount }, (_, w) => w % cores);
    this.coreJobs = Array.from({ length: cores }, () => []);
    this.coreSince = new Float64Array(cores);
    this.coreVersion = new Int32Array(cores);
    this.remainingUs = new Float64Array(workerCount);
    this.serviceStartUs = new Float64Array(workerCount);
    this.waitKind = new Uint8Array(workerCount);
    this.waitStage = new Int32Array(workerCount);
    this.waitSinceUs = new Float64Array(workerCount);
    this.workerBusyUs = new Float64Array(workerCount);
    this.workerIdleUs = new Float64Array(workerCount);
    this.workerBlockedUs = new Float64Array(workerCount);
  }

  /** A worker's service of `workUs` core-µs ended (wall time may be longer when time-shared). */
  protected abstract serviceDone(worker: number): void;
  /** A timer set by `after` fired. */
  protected abstract timer(worker: number): void;

  emit(kind: EventKindName, worker: number, stage: number, item: number, arg = 0): void {
    this.eventCount++;
    if (this.sink !== undefined) {
      this.sink({ timeUs: this.nowUs, item: item < 0 ? NO_ITEM : item, arg, worker, stage, kind });
    }
  }

  /** Starts `workUs` of service on the worker's core; `busyUs` of `stage` gets the wall time. */
  serve(worker: number, workUs: number): void {
    const core = this.coreOf[worker];
    this.settle(core);
    this.remainingUs[worker] = workUs;
    this.serviceStartUs[worker] = this.nowUs;
    this.coreJobs[core].push(worker);
    this.reschedule(core);
  }

  serviceWallUs(worker: number): number {
    return this.nowUs - this.serviceStartUs[worker];
  }

  after(worker: number, delayUs: number): void {
    this.heap.push(this.nowUs + delayUs, TIMER_EVENT * INDEX_RADIX + worker, 0);
  }

  beginWait(worker: number, kind: WaitKind, stage: number): void {
    this.waitKind[worker] = kind;
    this.waitStage[worker] = stage;
    this.waitSinceUs[worker] = this.nowUs;
  }

  /** Ends a wait and books it to the stage's idleUs or blockedUs; returns the waited µs. */
  endWait(worker: number): number {
    const kind = this.waitKind[worker];
    if (kind === Wait.None) return 0;
    const waited = this.nowUs - this.waitSinceUs[worker];
    const stage = this.waitStage[worker];
    if (kind === Wait.Idle) this.workerIdleUs[worker] += waited;
    else this.workerBlockedUs[worker] += waited;
    if (stage >= 0 && stage < this.counters.length) {
      if (kind === Wait.Idle) this.counters[stage].idleUs += waited;
      else this.counters[stage].blockedUs += waited;
    }
    this.waitKind[worker] = Wait.None;
    return waited;
  }

  /** Processes every event at or before `timeUs`; the clock ends at `timeUs`. */
  advanceTo(timeUs: number): void {
    while (this.heap.size > 0 && this.heap.peekTime() <= timeUs) this.step();
    if (timeUs > this.nowUs && Number.isFinite(timeUs)) this.nowUs = timeUs;
  }

  /** Runs until no event is left. */
  drain(): void {
    while (this.heap.size > 0) this.step();
  }

  get pendingEvents(): number {
    return this.heap.size;
  }

  private step(): void {
    this.nowUs = this.heap.pop();
    const kind = Math.floor(this.heap.a / INDEX_RADIX);
    const index = this.heap.a % INDEX_RADIX;
    if (kind === TIMER_EVENT) this.timer(index);
    else if (this.heap.b === this.coreVersion[index]) this.coreFinish(index);
  }

  private coreFinish(core: number): void {
    this.settle(core);
    const jobs = this.coreJobs[core];
    let best = 0;
    for (let j = 1; j < jobs.length; j++) {
      if (this.remainingUs[jobs[j]] < this.remainingUs[jobs[best]]) best = j;
    }
    const worker = jobs[best];
    jobs.splice(best, 1);
    this.workerBusyUs[worker] += this.serviceWallUs(worker);
    this.reschedule(core);
    this.serviceDone(worker);
  }

  /** The core share each job on `core` gets now (at most one whole core). */
  private speed(core: number): number {
    return Math.min(1, this.coreCapacity / this.coreJobs[core].length);
  }

  /** Charges the time since the core's last change to every job on it, shared equally. */
  private settle(core: number): void {
    const jobs = this.coreJobs[core];
    if (jobs.length > 0) {
      const share = (this.nowUs - this.coreSince[core]) * this.speed(core);
      for (const w of jobs) this.remainingUs[w] -= share;
    }
    this.coreSince[core] = this.nowUs;
  }

  private reschedule(core: number): void {
    const version = ++this.coreVersion[core];
    const jobs = this.coreJobs[core];
    if (jobs.length === 0) return;
    let least = Infinity;
    for (const w of jobs) least = Math.min(least, this.remainingUs[w]);
    const at = this.nowUs + Math.max(0, least) / this.speed(core);
    this.heap.push(at, CORE_EVENT * INDEX_RADIX + core, version);
  }
}
