// Sizing (Eq. 8–10): the throughput ceiling λ_eu, N_optimal and c_optimal within a tolerance ε.
import type { ExperimentSpec } from '../spec/experimentSpec';
import { checkReal } from './args';
import { serialCapPerUs, stageInputs, totalServiceUs, type MeasuredServiceUs } from './serviceTime';
import { closedStaticModel, type ArrivalReading } from './staticModels';
import { workStealingModel } from './workStealing';

/** λe(N) only approaches λ_eu, so "optimal" means within ε of it; 2% unless told otherwise. */
export const DEFAULT_TOLERANCE = 0.02;
const MAX_SIZE = 4096;

export interface SizingOptions {
  tolerance?: number;
  reading?: ArrivalReading;
  measuredServiceUs?: MeasuredServiceUs;
}

export interface SizingResult {
  tolerance: number;
  /** λ_max = min(1/T_in, 1/T_out) over serial stages (Eq. 8; Infinity when none is serial). */
  lambdaMaxPerUs: number;
  /** λ_eu (Eq. 9): the ceiling λe(N) approaches. */
  ceilingPerUs: number;
  /** Smallest queue size (static) or token count (work stealing) with λe ≥ (1−ε)λ_eu; null if
   * none up to 4096. */
  nOptimal: number | null;
  /** Eq. 10: threads per stage (static) or in total (work stealing) so c/T_ser ≥ (1−ε)λ_max;
   * null when no serial stage sets λ_max. */
  cOptimal: number[] | number | null;
}

/**
 * Static: λ_upper_i = c_i/T_ser_i, λ_eu = min(min_i λ_upper_i, λ_max).
 * Work stealing: the paper writes min(Σλ_upper_i, λ_max); we read the Σ as adding the per-item
 * times of stages any of the npTh threads can serve, i.e. 1/Σ(T_ser_i/npTh) = npTh/ΣT_ser_i.
 */
export function sizing(spec: ExperimentSpec, options: SizingOptions = {}): SizingResult {
  const tolerance = checkReal('tolerance', options.tolerance ?? DEFAULT_TOLERANCE, 0, 0.5, true);
  const measuredServiceUs = options.measuredServiceUs;
  const stages = stageInputs(spec, measuredServiceUs);
  const lambdaMaxPerUs = serialCapPerUs(stages);
  const totalUs = totalServiceUs(stages);
  const stealing = spec.runtime === 'work-stealing';
  const upper = stealing
    ? Math.min(spec.threads, spec.cores ?? spec.threads) / totalUs
    : Math.min(...stages.map((s) => s.servers / s.serviceTimeUs));
  const ceilingPerUs = Math.min(upper, lambdaMaxPerUs);
  const target = (1 - tolerance) * ceilingPerUs;
  const reached = (n: number) =>
    (stealing
      ? workStealingModel(spec, { tokens: n, measuredServiceUs }).throughputPerUs
      : closedStaticModel(spec, { queueSize: n, reading: options.reading, measuredServiceUs })
          .throughputPerUs) >= target;
  let cOptimal: number[] | number | null = null;
  if (Number.isFinite(lambdaMaxPerUs)) {
    const needed = (timeUs: number) => Math.max(1, Math.ceil(target * timeUs - 1e-12));
    cOptimal = stealing
      ? needed(totalUs)
      : stages.map((s) => (s.serial ? 1 : needed(s.serviceTimeUs)));
  }
  return { tolerance, lambdaMaxPerUs, ceilingPerUs, nOptimal: smallest(reached), cOptimal };
}

/** Smallest n in 1..4096 with reached(n), by bisection: λe(N) grows with N in both models. */
function smallest(reached: (n: number) => boolean): number | null {
  if (!reached(MAX_SIZE)) return null;
  let low = 0;
  let high = MAX_SIZE;
  while (high - low > 1) {
    const mid = (low + high) >> 1;
    if (reached(mid)) high = mid;
    else low = mid;
  }
  return high;
}
