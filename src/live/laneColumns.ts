// A worker's bucketed time as lane segments: each bucket is a column holding every state the
// worker was in during it, with the share of the bucket's time it spent there, so a state that
// takes 5% of every bucket is drawn as 5% of the lane (drawn as each bucket's dominant state it
// vanished). Neighbouring buckets with the same states and about the same shares are merged into
// one column whose shares are their time-weighted mean: the drawing stays a few rectangles per
// lane for steady work, and every state's total time is kept exactly.

export type LaneState = 'busy' | 'idle' | 'blocked' | 'stealing' | 'ready';

export interface LaneSegment {
  startUs: number;
  endUs: number;
  state: LaneState;
  stage: number | null;
  /** The fraction of [startUs, endUs) the worker spent in this state (1 when absent). The parts
   * of one column share its bounds and follow each other, their shares summing to 1. */
  share?: number;
}

/** Neighbouring buckets merge while each share stays this close to the merged column's: under a
 * pixel of a 22 px lane, so the merging is not visible, and jitter between buckets (two short
 * services in one, three in the next) does not turn a steady lane into one column per bucket. */
export const MERGE_SHARE = 0.04;
/** Time below this fraction of a bucket is rounding, not a state the worker was in. */
const NEGLIGIBLE = 1e-9;

export interface BucketRows {
  /** [bucket % ring][slot] → µs spent. */
  row: Float64Array;
  slots: number;
  /** Slots below this are busy in that stage; the others are the waiting states, in order. */
  stages: number;
  waitStates: readonly LaneState[];
  /** The buckets to read, first to last (inclusive), a bucket's index taken modulo `ring`. */
  first: number;
  last: number;
  ring: number;
  bucketUs: number;
  /** The run's clock: the newest bucket ends here. */
  nowUs: number;
}

/** Bottom to top in a column: busy in each stage, then blocked, stealing, ready and idle on top,
 * so a lane's busy share reads as a bar from its floor. */
function columnOrder(stages: number, waitStates: readonly LaneState[]): number[] {
  const waitOrder: LaneState[] = ['blocked', 'stealing', 'ready', 'idle'];
  return [
    ...Array.from({ length: stages }, (_, s) => s),
    ...waitOrder.map((w) => stages + waitStates.indexOf(w)).filter((k) => k >= stages),
  ];
}

export function laneColumns(b: BucketRows): LaneSegment[] {
  const out: LaneSegment[] = [];
  const order = columnOrder(b.stages, b.waitStates);
  let run: { startUs: number; endUs: number; us: Float64Array; total: number; key: string } | null =
    null;
  const flush = () => {
    if (!run) return;
    for (const s of order) {
      if (run.us[s] <= run.total * NEGLIGIBLE) continue;
      const busy = s < b.stages;
      out.push({
        startUs: run.startUs,
        endUs: run.endUs,
        state: busy ? 'busy' : b.waitStates[s - b.stages],
        stage: busy ? s : null,
        share: run.us[s] / run.total,
      });
    }
    run = null;
  };
  for (let k = b.first; k <= b.last; k++) {
    const at = (k % b.ring) * b.slots;
    let total = 0;
    for (let s = 0; s < b.slots; s++) total += b.row[at + s];
    if (total <= 0) {
      flush();
      continue;
    }
    let key = '';
    for (let s = 0; s < b.slots; s++) if (b.row[at + s] > total * NEGLIGIBLE) key += `${s},`;
    const startUs = k * b.bucketUs;
    const endUs = Math.min((k + 1) * b.bucketUs, b.nowUs);
    const current = run as typeof run;
    const joins =
      current !== null &&
      current.key === key &&
      current.endUs >= startUs &&
      Array.from(
        { length: b.slots },
        (_, s) => Math.abs(b.row[at + s] / total - current.us[s] / current.total) <= MERGE_SHARE,
      ).every(Boolean);
    if (joins && current) {
      for (let s = 0; s < b.slots; s++) current.us[s] += b.row[at + s];
      current.total += total;
      current.endUs = endUs;
      continue;
    }
    flush();
    run = { startUs, endUs, us: b.row.slice(at, at + b.slots), total, key };
  }
  flush();
  return out;
}
