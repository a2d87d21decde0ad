// The twin of the barrier runtime (wasm/include/pipelab/pipeline/barrier_runtime.hpp): T threads
// repeat (compute W/T µs of CPU, meet at a barrier) for `items` intervals on C simulated cores,
// with a model of the scheduler, so it can pack 16 threads onto any budget of 1..16 cores (the
// paper's Fig. 1) where the visitor's machine has only a few.
//
// The scheduler model (both schedules):
// - Each core runs its runnable threads round-robin in time slices of `quantumUs` (the spec's):
//   a thread runs until its slice ends or its work is done, then the next one in the core's queue.
// - packed: thread t lives on core t mod min(C, T) for good (the C++ runtime's assignment). A
//   thread whose work is done leaves its core until the barrier releases everyone; spinning or
//   blocking makes no difference, since each core thread has a real core of its own.
// - os: threads start on core (t + a seeded offset) mod C. A waiter at a blocking barrier sleeps
//   (leaves its core) and wakes on the same core; a waiter at a spinning barrier stays runnable
//   and burns its slices until the barrier opens. A LOAD BALANCER runs every `balancePeriodUs`
//   (first run at a seeded phase): it deals the runnable threads out so core loads differ by at
//   most one, the threads that have had the least CPU since the last barrier getting the cores
//   with fewer threads (Linux's scheduler aims at fairness across cores in the same spirit), and
//   it moves as few threads as it can. Migrations cost nothing; between balancer runs nothing
//   moves. So an interval much longer than the period is smoothed — every thread gets about C/T
//   of a core — while a shorter one keeps its imbalance: the packed core's threads take ⌈T/C⌉
//   times as long, and everyone else waits for them.
// Telemetry: the C++ runtime's events (contracts/telemetry.md): start/end per slice, then
// barrier-arrive and barrier-pass, with the simulated core as arg under both schedules.
import type { ExperimentSpec } from '../spec/experimentSpec';
import { CompletionClock } from './completionClock';
import { EventHeap } from './eventHeap';
import { Xoshiro128 } from './prng';
import {
  emptyCounters,
  type EventKindName,
  type StageCounters,
  type TelemetrySink,
} from './telemetry';

/** The os schedule's balancer period, µs: within the range of Linux's balancing intervals (a few
 * ms for an idle core, tens to ~100 ms for a busy one), between the paper's fine (2–4 ms) and
 * coarse (66–597 ms) barrier intervals. A simulation option. */
export const DEFAULT_BALANCE_PERIOD_US = 16_000;

const CORE_EVENT = 0;
const BALANCE_EVENT = 1;
const RADIX = 65536;
/** Work left below this (µs) is done: slices are sums of floating-point times. */
const EPSILON_US = 1e-6;

const enum State {
  Computing,
  Spinning,
  Sleeping,
}

export class BarrierTwin {
  nowUs = 0;
  eventCount = 0;
  readonly clock: CompletionClock;
  readonly counters: StageCounters[] = [emptyCounters()];
  readonly workerCount: number;
  readonly cores: number;
  /** Per thread: µs computing, waiting at the barrier, and runnable but not running. */
  readonly workerBusyUs: Float64Array;
  readonly workerIdleUs: Float64Array;
  readonly workerBlockedUs: Float64Array;
  /** Per core: µs spent computing (spinning excluded). */
  readonly coreBusyUs: Float64Array;
  private readonly heap = new EventHeap();
  private readonly packed: boolean;
  private readonly spinning: boolean;
  private readonly quantumUs: number;
  private readonly shareUs: number;
  private interval = 0;
  private arrived = 0;
  // Per thread.
  private readonly core: Int32Array;
  private readonly state: Uint8Array;
  private readonly leftUs: Float64Array;
  private readonly cpuUs: Float64Array;
  private readonly arrivedUs: Float64Array;
  private readonly readySinceUs: Float64Array;
  // Per core.
  private readonly queue: number[][];
  private readonly running: Int32Array;
  private readonly runStartUs: Float64Array;
  private readonly sliceEndUs: Float64Array;
  private readonly version: Int32Array;

  constructor(
    spec: ExperimentSpec,
    private readonly balancePeriodUs: number,
    private readonly sink: TelemetrySink | undefined,
  ) {
    const threads = spec.threads;
    this.workerCount = threads;
    this.packed = spec.schedule === 'packed';
    this.spinning = spec.barrier === 'spin' && !this.packed;
    this.cores = this.packed ? Math.min(spec.cores!, threads) : (spec.cores ?? threads);
    this.quantumUs = spec.quantumUs!;
    const work = spec.stages[0].service;
    this.shareUs = (work.kind === 'fixed' ? work.us : 0) / threads;
    this.clock = new CompletionClock(spec.items);
    this.workerBusyUs = new Float64Array(threads);
    this.workerIdleUs = new Float64Array(threads);
    this.workerBlockedUs = new Float64Array(threads);
    this.coreBusyUs = new Float64Array(this.cores);
    this.core = new Int32Array(threads);
    this.state = new Uint8Array(threads);
    this.leftUs = new Float64Array(threads).fill(this.shareUs);
    this.cpuUs = new Float64Array(threads);
    this.arrivedUs = new Float64Array(threads);
    this.readySinceUs = new Float64Array(threads);
    this.queue = Array.from({ length: this.cores }, () => []);
    this.running = new Int32Array(this.cores).fill(-1);
    this.runStartUs = new Float64Array(this.cores);
    this.sliceEndUs = new Float64Array(this.cores);
    this.version = new Int32Array(this.cores);

    const rng = new Xoshiro128(spec.seed ^ 0x2545f491);
    const offset = this.packed ? 0 : rng.below(this.cores);
    for (let t = 0; t < threads; t++) {
      this.core[t] = (t + offset) % this.cores;
      this.queue[this.core[t]].push(t);
    }
    if (!this.packed && threads > 1)
      this.heap.push(rng.uniform() * balancePeriodUs, BALANCE_EVENT * RADIX, 0);
    for (let c = 0; c < this.cores; c++) this.dispatch(c);
  }

  /** Processes every event at or before `timeUs`; the clock ends at `timeUs`. */
  advanceTo(timeUs: number): void {
    while (this.heap.size > 0 && this.heap.peekTime() <= timeUs) this.step();
    if (timeUs > this.nowUs && Number.isFinite(timeUs)) this.nowUs = timeUs;
  }

  drain(): void {
    while (this.heap.size > 0) this.step();
  }

  private step(): void {
    this.nowUs = this.heap.pop();
    const kind = Math.floor(this.heap.a / RADIX);
    const index = this.heap.a % RADIX;
    if (kind === BALANCE_EVENT) this.balance();
    else if (this.heap.b === this.version[index]) this.sliceOver(index);
  }

  private emit(kind: EventKindName, thread: number): void {
    this.eventCount++;
    this.sink?.({
      timeUs: this.nowUs,
      item: this.interval,
      arg: this.core[thread],
      worker: thread,
      stage: 0,
      kind,
    });
  }

  /** Core c is free: run the next thread in its queue for a slice. */
  private dispatch(c: number): void {
    if (this.running[c] >= 0 || this.clock.done) return;
    const t = this.queue[c].shift();
    if (t === undefined) return;
    this.workerBlockedUs[t] += this.nowUs - this.readySinceUs[t];
    this.running[c] = t;
    this.runStartUs[c] = this.nowUs;
    this.sliceEndUs[c] = this.nowUs + this.quantumUs;
    if (this.state[t] === State.Computing) this.emit('start', t);
    this.schedule(c);
  }

  /** The running thread's next event: its slice ends, or (computing) its work does. */
  private schedule(c: number): void {
    const t = this.running[c];
    const end =
      this.state[t] === State.Computing
        ? Math.min(this.sliceEndUs[c], this.runStartUs[c] + this.leftUs[t])
        : this.sliceEndUs[c];
    this.heap.push(end, CORE_EVENT * RADIX + c, ++this.version[c]);
  }

  /** Takes the running thread off core c (its computing so far is charged); returns it. */
  private preempt(c: number): number {
    const t = this.running[c];
    this.version[c]++;
    this.running[c] = -1;
    if (this.state[t] === State.Computing) {
      const ran = this.nowUs - this.runStartUs[c];
      this.leftUs[t] -= ran;
      this.cpuUs[t] += ran;
      this.workerBusyUs[t] += ran;
      this.coreBusyUs[c] += ran;
      this.counters[0].busyUs += ran;
      this.emit('end', t);
    }
    return t;
  }

  private enqueue(t: number, c: number): void {
    this.core[t] = c;
    this.readySinceUs[t] = this.nowUs;
    this.queue[c].push(t);
  }

  private sliceOver(c: number): void {
    const running = this.running[c];
    const workLeft = this.runStartUs[c] + this.leftUs[running] - this.nowUs > EPSILON_US;
    if (this.queue[c].length === 0 && this.state[running] === State.Computing && workLeft) {
      // Nobody else wants this core: the thread runs on into another slice, unpreempted.
      this.sliceEndUs[c] += this.quantumUs;
      this.schedule(c);
      return;
    }
    const t = this.preempt(c);
    if (this.state[t] === State.Computing && this.leftUs[t] <= EPSILON_US) {
      this.arrive(t, c);
      return;
    }
    this.enqueue(t, c);
    this.dispatch(c);
  }

  /** Thread t, just off core c, finished its work for this interval. */
  private arrive(t: number, c: number): void {
    this.leftUs[t] = 0;
    this.arrivedUs[t] = this.nowUs;
    this.emit('barrier-arrive', t);
    if (++this.arrived === this.workerCount) {
      this.release(t, c);
      return;
    }
    if (this.spinning) {
      // It spins on for the rest of its slice, then queues like any runnable thread.
      this.state[t] = State.Spinning;
      this.running[c] = t;
      this.runStartUs[c] = this.nowUs;
      if (this.sliceEndUs[c] > this.nowUs) {
        this.schedule(c);
        return;
      }
      this.running[c] = -1;
      this.enqueue(t, c);
    } else {
      this.state[t] = State.Sleeping;
    }
    this.dispatch(c);
  }

  /** The last arrival (thread last, just off core c): every thread passes; the next interval. */
  private release(last: number, c: number): void {
    const counters = this.counters[0];
    for (let t = 0; t < this.workerCount; t++) {
      const waited = this.nowUs - this.arrivedUs[t];
      this.workerIdleUs[t] += waited;
      counters.idleUs += waited;
      this.emit('barrier-pass', t);
    }
    counters.itemsIn++;
    counters.itemsOut++;
    this.clock.record(this.nowUs);
    this.interval++;
    this.arrived = 0;
    if (this.clock.done) return;
    for (let t = 0; t < this.workerCount; t++) {
      this.leftUs[t] = this.shareUs;
      this.cpuUs[t] = 0;
      const was = this.state[t];
      this.state[t] = State.Computing;
      if (t === last) continue;
      if (was === State.Sleeping) this.enqueue(t, this.core[t]);
      else if (this.running[this.core[t]] === t) {
        // A spinner holding its core passes at once and computes on in its slice.
        const on = this.core[t];
        this.runStartUs[on] = this.nowUs;
        this.emit('start', t);
        this.schedule(on);
      }
    }
    // The last arrival keeps its core: it passes and goes on computing (a fresh slice).
    this.running[c] = last;
    this.runStartUs[c] = this.nowUs;
    this.sliceEndUs[c] = this.nowUs + this.quantumUs;
    this.emit('start', last);
    this.schedule(c);
    for (let k = 0; k < this.cores; k++) this.dispatch(k);
  }

  /** The os schedule's periodic balancer (see the file comment). */
  private balance(): void {
    if (this.clock.done) return;
    this.heap.push(this.nowUs + this.balancePeriodUs, BALANCE_EVENT * RADIX, 0);
    const runnable: number[] = [];
    for (let t = 0; t < this.workerCount; t++)
      if (this.state[t] !== State.Sleeping) runnable.push(t);
    const n = runnable.length;
    if (n === 0) return;
    // CPU had so far this interval, the running stretch included; spinners have had all they need.
    const had = (t: number) => {
      if (this.state[t] === State.Spinning) return Infinity;
      const c = this.core[t];
      return this.cpuUs[t] + (this.running[c] === t ? this.nowUs - this.runStartUs[c] : 0);
    };
    runnable.sort((a, b) => had(a) - had(b) || a - b);
    const base = Math.floor(n / this.cores);
    const extra = n % this.cores;
    const lightCount = (this.cores - extra) * base;
    const heavy = new Set(runnable.slice(lightCount));
    // Heavy cores: those already holding the most threads that stay heavy (fewest moves).
    const heavyHere = new Int32Array(this.cores);
    for (const t of heavy) heavyHere[this.core[t]]++;
    const order = Array.from({ length: this.cores }, (_, c) => c).sort(
      (a, b) => heavyHere[b] - heavyHere[a] || a - b,
    );
    const heavyCore = new Uint8Array(this.cores);
    for (const c of order.slice(0, extra)) heavyCore[c] = 1;
    const capacity = Int32Array.from(heavyCore, (h) => base + h);
    // Threads whose core fits their class stay while it has room; the rest move.
    const moving: number[] = [];
    for (const t of runnable) {
      const c = this.core[t];
      if (heavy.has(t) === (heavyCore[c] === 1) && capacity[c] > 0) capacity[c]--;
      else moving.push(t);
    }
    for (const t of moving) {
      const to = order.find((c) => capacity[c] > 0 && (heavyCore[c] === 1) === heavy.has(t))!;
      capacity[to]--;
      const from = this.core[t];
      if (this.running[from] === t) this.preempt(from);
      else this.queue[from].splice(this.queue[from].indexOf(t), 1);
      this.enqueue(t, to);
    }
    for (let c = 0; c < this.cores; c++) this.dispatch(c);
  }
}
