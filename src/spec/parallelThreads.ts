// The paper's thread rule for static pipelines (seed 000 §3.1): npTh parallel threads shared by the
// parallel stages, c_i = npTh / npstages. Lessons set it with one control and the sizing model
// searches it; both split it here so they cannot disagree.
import type { StageSpec } from './experimentSpec';

/** The parallel stages' threads in total (npTh). */
export const parallelThreadsOf = (stages: readonly StageSpec[]): number =>
  stages.reduce((sum, s) => sum + (s.mode === 'parallel' ? s.threads : 0), 0);

/** How many stages share npTh (npstages). */
export const parallelStageCount = (stages: readonly StageSpec[]): number =>
  stages.filter((s) => s.mode === 'parallel').length;

/**
 * The stages with npTh split over the parallel ones as evenly as integers allow: each gets
 * ⌊npTh/npstages⌋ and the first npTh mod npstages one more (so the total stays npTh, and an npTh
 * the stages divide gives the paper's c_i = npTh/npstages). Throws a RangeError naming npTh when
 * it leaves a parallel stage without a thread, or when there is no parallel stage.
 */
export function splitParallelThreads<S extends StageSpec>(stages: readonly S[], npTh: number): S[] {
  const count = parallelStageCount(stages);
  if (count === 0) throw new RangeError(`npTh: ${npTh} has no parallel stage to go to`);
  if (!Number.isInteger(npTh) || npTh < count)
    throw new RangeError(
      `npTh: ${npTh} is out of range (allowed ${count} or more: one thread for each of the ${count} parallel stages)`,
    );
  let k = 0;
  return stages.map((s) => {
    if (s.mode !== 'parallel') return s;
    const threads = Math.floor(npTh / count) + (k++ < npTh % count ? 1 : 0);
    return { ...s, threads };
  });
}
