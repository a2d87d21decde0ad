// The whole run's time per worker and state at a grain that coarsens as the run grows: a fixed
// number of buckets from the run's start, each pair merged into one whenever the run outgrows
// them. The live lanes keep only a sliding window (liveState.ts); this keeps the rest, so a run
// that ended can be scrolled and zoomed end to end in bounded memory.
import { laneColumns, type LaneSegment, type LaneState } from './laneColumns';

/** Memory budget: doubles across all workers and states (8 MB). */
const BUDGET = 1 << 20;
/** At most this many buckets (a power of two, so halving stays exact). */
const MAX_BUCKETS = 2048;
const MIN_BUCKETS = 256;

export class RunHistory {
  private readonly buckets: number;
  private bucketUs: number;
  private readonly time: Float64Array[];
  private cached: { nowUs: number; lanes: LaneSegment[][] } | null = null;

  constructor(
    workers: number,
    private readonly slots: number,
    private readonly stages: number,
    private readonly waitStates: readonly LaneState[],
    /** The finest grain: the live window's bucket width. */
    bucketUs: number,
  ) {
    let buckets = MAX_BUCKETS;
    while (buckets > MIN_BUCKETS && buckets * slots * Math.max(1, workers) > BUDGET) buckets /= 2;
    this.buckets = buckets;
    this.bucketUs = bucketUs;
    this.time = Array.from({ length: workers }, () => new Float64Array(buckets * slots));
  }

  /** Adds [fromUs, untilUs) in `slot` to worker w. */
  add(w: number, slot: number, fromUs: number, untilUs: number): void {
    if (!(untilUs > fromUs) || fromUs < 0) return;
    while (untilUs > this.buckets * this.bucketUs) this.halve();
    this.cached = null;
    const row = this.time[w];
    let t = fromUs;
    for (let b = Math.floor(t / this.bucketUs); t < untilUs; b++) {
      const end = Math.min(untilUs, (b + 1) * this.bucketUs);
      if (end > t) row[b * this.slots + slot] += end - t;
      t = end;
    }
  }

  /** Every worker's lane from the run's start to nowUs. */
  lanes(nowUs: number): LaneSegment[][] {
    if (this.cached?.nowUs === nowUs) return this.cached.lanes;
    const last = Math.min(this.buckets - 1, Math.max(0, Math.ceil(nowUs / this.bucketUs) - 1));
    const lanes = this.time.map((row) =>
      laneColumns({
        row,
        slots: this.slots,
        stages: this.stages,
        waitStates: this.waitStates,
        first: 0,
        last,
        ring: this.buckets,
        bucketUs: this.bucketUs,
        nowUs,
      }),
    );
    this.cached = { nowUs, lanes };
    return lanes;
  }

  /** Merges each pair of buckets: the same span in half as many, the upper half left empty. */
  private halve(): void {
    const { slots } = this;
    for (const row of this.time) {
      for (let b = 0; b < this.buckets / 2; b++)
        for (let s = 0; s < slots; s++)
          row[b * slots + s] = row[2 * b * slots + s] + row[(2 * b + 1) * slots + s];
      row.fill(0, (this.buckets / 2) * slots);
    }
    this.bucketUs *= 2;
  }
}
