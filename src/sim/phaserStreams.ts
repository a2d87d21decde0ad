// The twin's bounded-phaser streams (the C++ phaser/stream.hpp, as bookkeeping): each signaller
// publishes phases of `batch` elements (one when not batched, or a shorter last one when it
// flushes), each waiter takes elements in order and counts a wait at the start of every phase,
// and a signaller may publish phase q only while q < W + bound (W: the slowest live waiter's
// phases). Values ride along: a sieve decides on them, and the tests compare the sink's with a
// sequential run. Several signallers (a split-join's copies) are combined element by element.
import type { Reduce } from '../spec/experimentSpec';

export interface SignalReg {
  task: number;
  live: boolean;
  /** The first element index this signaller publishes (a sieve tail takes over mid-stream). */
  firstElement: number;
  /** Elements published, counted from the stream's start. */
  elements: number;
  phases: number;
  /** Elements put in the current phase, not yet published. */
  pending: number[];
  /** Published values from element `base` on (older ones trimmed once every waiter is past). */
  values: number[];
  base: number;
}

export interface WaitReg {
  task: number;
  live: boolean;
  /** Elements taken. */
  consumed: number;
  /** Phases waited for. */
  phases: number;
}

const combine = (r: Reduce, a: number, b: number) =>
  r === 'sum' ? a + b : r === 'min' ? Math.min(a, b) : r === 'max' ? Math.max(a, b) : b;
const identity = (r: Reduce) => (r === 'min' ? Infinity : r === 'max' ? -Infinity : 0);

export class SimStream {
  readonly signallers: SignalReg[] = [];
  readonly waiters: WaitReg[] = [];
  /** Element count at the end of each published phase. */
  readonly phaseEnds: number[] = [];
  /** Tasks parked on this stream (woken by any change). */
  parked: number[] = [];

  constructor(
    readonly id: number,
    readonly reduce: Reduce,
    readonly bound: number,
    /** Elements per phase (1 when not batched). */
    readonly batch: number,
  ) {}

  signaller(task: number, from?: SignalReg): SignalReg {
    const at = from?.elements ?? 0;
    const r: SignalReg = {
      task,
      live: true,
      firstElement: at,
      elements: at,
      phases: from?.phases ?? 0,
      pending: [],
      values: [],
      base: at,
    };
    this.signallers.push(r);
    return r;
  }
  waiter(task: number): WaitReg {
    const r: WaitReg = { task, live: true, consumed: 0, phases: 0 };
    this.waiters.push(r);
    return r;
  }

  /** W: the slowest live waiter's phases; Infinity once all dropped; 0 before any registered. */
  minWaited(): number {
    let w = Infinity;
    let live = false;
    for (const r of this.waiters)
      if (r.live) {
        live = true;
        w = Math.min(w, r.phases);
      }
    return live || this.waiters.length > 0 ? w : 0;
  }
  /** Phases complete: every live signaller published them (all signallers' when none is live). */
  completePhases(): number {
    let lo = Infinity;
    let hi = 0;
    for (const r of this.signallers) {
      hi = Math.max(hi, r.phases);
      if (r.live) lo = Math.min(lo, r.phases);
    }
    return lo === Infinity ? hi : lo;
  }
  hasLiveSignaller(): boolean {
    return this.signallers.some((r) => r.live);
  }
  completeElements(): number {
    const p = this.completePhases();
    return p === 0 ? 0 : this.phaseEnds[p - 1];
  }

  canPublish(r: SignalReg): boolean {
    return r.phases < this.minWaited() + this.bound;
  }
  /** Publishes r's pending elements as one phase (the caller checked canPublish). */
  publish(r: SignalReg): void {
    r.values.push(...r.pending);
    r.elements += r.pending.length;
    r.pending = [];
    r.phases++;
    if (this.phaseEnds.length < r.phases) this.phaseEnds.push(r.elements);
  }

  /** 'ready' when waiter r's next element is complete, 'ended' when none will ever be. */
  state(r: WaitReg): 'ready' | 'pending' | 'ended' {
    if (r.consumed < this.completeElements()) return 'ready';
    return this.hasLiveSignaller() ? 'pending' : 'ended';
  }
  /** Takes r's next element (state 'ready'); returns its value and whether it began a phase. */
  take(r: WaitReg): { value: number; newPhase: boolean } {
    const e = r.consumed++;
    const newPhase = r.phases === 0 || e >= this.phaseEnds[r.phases - 1];
    if (newPhase) r.phases++;
    let value = identity(this.reduce);
    for (let i = this.signallers.length - 1; i >= 0; i--) {
      const s = this.signallers[i];
      if (e < s.firstElement || e >= s.elements) continue;
      value = combine(this.reduce, value, s.values[e - s.base]);
      if (this.reduce === 'any') break;
    }
    this.trim();
    return { value, newPhase };
  }

  /** Occupancy now: phases complete and not yet waited for by the slowest live waiter. */
  occupancy(): number {
    const w = this.minWaited();
    return w === Infinity ? 0 : Math.max(0, this.completePhases() - w);
  }

  /** Drops values every waiter is past (keeping one for avg's get(-1)). */
  private trim(): void {
    let low = Infinity;
    for (const w of this.waiters) if (w.live) low = Math.min(low, w.consumed);
    if (low === Infinity) low = 0;
    for (const s of this.signallers) {
      const drop = low - 1 - s.base;
      if (drop > 4096) {
        s.values.splice(0, drop);
        s.base += drop;
      }
    }
  }
}
