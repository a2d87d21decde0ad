// Whether a run on real threads was disturbed: something else (other programs, other tabs) took
// its cores, so its numbers say more about the machine than about the pipeline. Two signs, each
// against what the spec asked: a stage's busy time per item far above its configured service
// time (a thread descheduled in the middle of an item is still "busy"), and throughput far below
// the model when every thread had a core of its own. Lesson 2 on a loaded machine measured 13.8
// items/s against a model of 59.2 (57.0 when the machine was quiet): said nothing before.

/** Busy time per item above this many times the configured service time is a disturbed stage. */
export const SLOW_ITEM_FACTOR = 1.5;
/** Throughput below this share of the model (with a core per thread) is a disturbed run. */
export const LOW_THROUGHPUT_SHARE = 0.6;
/** Services shorter than this (µs) are not judged per item: timing and queue costs dominate them. */
export const MIN_JUDGED_SERVICE_US = 50;

export interface RunEvidence {
  /** Measured throughput, items/s. */
  itemsPerSec: number;
  /** The model's throughput for the spec, items/s, or null when it has none. */
  modelItemsPerSec: number | null;
  /** Every thread had a core of its own (threads ≤ the visitor's cores): the model applies. */
  coresToSpare: boolean;
  /** Per stage: its name, configured mean service (µs), measured busy time and items done. */
  stages: Array<{ name: string; serviceUs: number; busyUs: number; items: number }>;
}

export interface Disturbance {
  /** The stage slowed most, with its measured and configured time per item, or null. */
  slowest: { name: string; measuredUs: number; configuredUs: number } | null;
  /** Measured over model throughput when that was the sign, else null. */
  throughputShare: number | null;
}

/** The signs of a disturbed run, or null for a run that looks undisturbed. */
export function runDisturbance(run: RunEvidence): Disturbance | null {
  let slowest: Disturbance['slowest'] = null;
  for (const s of run.stages) {
    if (!(s.items > 0) || !(s.serviceUs >= MIN_JUDGED_SERVICE_US)) continue;
    const measuredUs = s.busyUs / s.items;
    if (
      measuredUs > SLOW_ITEM_FACTOR * s.serviceUs &&
      (!slowest || measuredUs / s.serviceUs > slowest.measuredUs / slowest.configuredUs)
    )
      slowest = { name: s.name, measuredUs, configuredUs: s.serviceUs };
  }
  const share =
    run.coresToSpare && run.modelItemsPerSec && run.modelItemsPerSec > 0
      ? run.itemsPerSec / run.modelItemsPerSec
      : null;
  const throughputShare = share !== null && share < LOW_THROUGHPUT_SHARE ? share : null;
  return slowest || throughputShare !== null ? { slowest, throughputShare } : null;
}
