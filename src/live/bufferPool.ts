// The two-stage output's buffer pool as the reorder view draws it, folded from the run's events
// (contracts/telemetry.md: buffer-take / buffer-ready / buffer-free, item = batch, arg = buffer;
// the writer's start of a batch): each buffer free, being filled, holding a finished batch that
// waits for its turn, or being written; which batch the writer needs next; and what happened so
// far — batches finished before an earlier one (so they had to wait), and formatters waiting for
// a free buffer. Rings are read one after another, so an event can arrive a frame after a later
// one: a buffer only moves forward (a later batch, or a later step of the same batch).
import type { TelemetryEvent } from '../telemetry';

export type BufferState = 'free' | 'filling' | 'ready' | 'writing';

export interface BufferSlot {
  state: BufferState;
  /** The batch it holds (null when free). */
  batch: number | null;
  /** Ready, but an earlier batch is not written yet: it waits for its turn. */
  waiting: boolean;
}

export interface BufferPoolSnapshot {
  /** index = buffer, as many as the events named so far. */
  slots: BufferSlot[];
  /** The batch the writer writes next (or is writing). */
  nextToWrite: number;
  written: number;
  /** Batches that finished while an earlier batch was still being formatted. */
  finishedOutOfOrder: number;
  /** Formatters waiting for a free buffer right now. */
  formattersWaiting: number;
  /** Times a formatter found the pool empty and had to wait. */
  bufferWaits: number;
}

const STEP: Record<BufferState, number> = { filling: 1, ready: 2, writing: 3, free: 4 };

export class BufferPoolTracker {
  private readonly slots: Array<{ batch: number; step: number }> = [];
  private readonly bufferOf = new Map<number, number>();
  /** Batches ready beyond the contiguous prefix 0..readyPrefix-1. */
  private readonly readyAhead = new Set<number>();
  private readyPrefix = 0;
  private finishedOutOfOrder = 0;
  private written = 0;
  private nextToWrite = 0;
  private readonly waitingFormatters = new Set<number>();
  private bufferWaits = 0;
  private seen = false;

  /** Folds one event in (events of other kinds are ignored). */
  apply(e: TelemetryEvent): void {
    switch (e.kind) {
      case 'buffer-take':
        this.waitingFormatters.delete(e.worker);
        this.bufferOf.set(e.item, e.arg);
        return this.move(e.arg, e.item, 'filling');
      case 'buffer-ready':
        this.markReady(e.item);
        return this.move(e.arg, e.item, 'ready');
      case 'buffer-free':
        this.bufferOf.delete(e.item);
        this.written++;
        this.nextToWrite = Math.max(this.nextToWrite, e.item + 1);
        return this.move(e.arg, e.item, 'free');
      case 'start': {
        const buffer = this.bufferOf.get(e.item);
        if (e.stage !== 1 || buffer === undefined) return;
        this.nextToWrite = Math.max(this.nextToWrite, e.item);
        return this.move(buffer, e.item, 'writing');
      }
      case 'blocked-full':
        if (e.stage !== 0 || this.waitingFormatters.has(e.worker)) return;
        this.waitingFormatters.add(e.worker);
        this.bufferWaits++;
        return;
    }
  }

  /** null until the run has shown a buffer (runtimes without a pool never do). */
  snapshot(): BufferPoolSnapshot | null {
    if (!this.seen) return null;
    return {
      slots: this.slots.map(({ batch, step }) => {
        const state = (Object.keys(STEP) as BufferState[]).find((k) => STEP[k] === step)!;
        const free = state === 'free';
        return {
          state,
          batch: free ? null : batch,
          waiting: state === 'ready' && batch > this.nextToWrite,
        };
      }),
      nextToWrite: this.nextToWrite,
      written: this.written,
      finishedOutOfOrder: this.finishedOutOfOrder,
      formattersWaiting: this.waitingFormatters.size,
      bufferWaits: this.bufferWaits,
    };
  }

  private move(buffer: number, batch: number, state: BufferState): void {
    this.seen = true;
    while (this.slots.length <= buffer) this.slots.push({ batch: -1, step: STEP.free });
    const slot = this.slots[buffer];
    const step = STEP[state];
    if (batch > slot.batch || (batch === slot.batch && step > slot.step)) {
      slot.batch = batch;
      slot.step = step;
    }
  }

  /** Batches are claimed in order, so a batch ready before a lower one finished out of order. */
  private markReady(batch: number): void {
    if (batch < this.readyPrefix || this.readyAhead.has(batch)) return;
    if (batch > this.readyPrefix) this.finishedOutOfOrder++;
    this.readyAhead.add(batch);
    while (this.readyAhead.delete(this.readyPrefix)) this.readyPrefix++;
  }
}
