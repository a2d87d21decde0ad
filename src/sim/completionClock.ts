// Completion bookkeeping: makespan and a steady-state throughput that skips fill and drain.

/** Steady-state window: completions from 10% to 90% of the items (fill and drain excluded). */
const WINDOW_START = 0.1;
const WINDOW_END = 0.9;

export class CompletionClock {
  completed = 0;
  /** When the first item came out (NaN before): a batch runtime's latency to first output. */
  firstUs = NaN;
  lastUs = 0;
  private readonly startMark: number;
  private readonly endMark: number;
  private startUs = NaN;
  private endUs = NaN;

  constructor(private readonly items: number) {
    this.startMark = Math.max(1, Math.ceil(items * WINDOW_START));
    this.endMark = Math.floor(items * WINDOW_END);
  }

  record(timeUs: number): void {
    this.recordMany(timeUs, 1);
  }

  /** `count` items completed together (a batch runtime's batch). */
  recordMany(timeUs: number, count: number): void {
    const before = this.completed;
    if (before === 0) this.firstUs = timeUs;
    this.completed += count;
    this.lastUs = timeUs;
    if (before < this.startMark && this.completed >= this.startMark) this.startUs = timeUs;
    if (before < this.endMark && this.completed >= this.endMark) this.endUs = timeUs;
  }

  /** Items per µs between the window marks; falls back to items/makespan for tiny runs. */
  steadyThroughputPerUs(): number {
    const span = this.endUs - this.startUs;
    if (this.endMark > this.startMark && span > 0) return (this.endMark - this.startMark) / span;
    return this.lastUs > 0 ? this.completed / this.lastUs : 0;
  }

  get done(): boolean {
    return this.completed === this.items;
  }
}
