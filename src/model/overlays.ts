// The model overlays a lesson can draw, by name, each as throughput in items/s for one
// ExperimentSpec: what the lesson format's `models:` list, the model chart and the checked claims
// evaluate.
import type { ExperimentSpec } from '../spec/experimentSpec';
import { ioBounds, isThreadPerStage } from './ioBounds';
import { barrierIntervalRates } from './seedModels';
import { closedStaticModel, openStaticModel } from './staticModels';
import { streamGraphBound } from './streamGraphBound';
import { idealModel, workStealingModel } from './workStealing';

export const MODEL_OVERLAYS = [
  'case1',
  'case1-per-server',
  'case2',
  'case3',
  'ideal',
  'lambda-max',
  'lambda-upper',
  'lambda-eu',
  'packing-bound',
  'balanced',
  'stream-bound',
] as const;
export type ModelOverlay = (typeof MODEL_OVERLAYS)[number];

export const OVERLAY_LABELS: Record<ModelOverlay, string> = {
  case1: 'Case 1 (closed, T_arr = max T_ser)',
  'case1-per-server': 'Case 1 (T_arr = max T_ser / c)',
  case2: 'Case 2 (open)',
  case3: 'Case 3 (work stealing)',
  ideal: 'Ideal (one central queue)',
  'lambda-max': 'λ_max = 1/T_serial (Eq. 9)',
  'lambda-upper': 'λ_upper = c/T_parallel (Eq. 8)',
  'lambda-eu': 'λ_eu = min(λ_upper, λ_max) (Eq. 10)',
  'packing-bound': 'idealised packing bound (no balancing inside an interval)',
  balanced: 'perfect balance (every core busy all interval)',
  'stream-bound': 'Bound: threads ÷ all work, 1 ÷ slowest task',
};

/** Model throughput in items/s (barrier runtime: intervals/s), or null when the overlay does not
 * apply to this runtime. */
export function modelItemsPerSec(overlay: ModelOverlay, spec: ExperimentSpec): number | null {
  const staticRuntime = isThreadPerStage(spec);
  const stealing = spec.runtime === 'work-stealing';
  let perUs: number | null = null;
  if (overlay === 'case1' && staticRuntime)
    perUs = closedStaticModel(spec, { reading: 'max-service' }).throughputPerUs;
  if (overlay === 'case1-per-server' && staticRuntime)
    perUs = closedStaticModel(spec, { reading: 'max-service-per-server' }).throughputPerUs;
  if (overlay === 'case2' && staticRuntime) perUs = openStaticModel(spec).throughputPerUs;
  if (overlay === 'case3' && stealing) perUs = workStealingModel(spec).throughputPerUs;
  if (overlay === 'ideal' && stealing) perUs = idealModel(spec);
  // Eq. 8–10 (the bounds at the ends of the pipeline) apply to every pipeline runtime kind; the
  // barrier runtime is no pipeline: its overlays are in intervals/s.
  const pipeline = spec.runtime !== 'barrier';
  if (overlay === 'lambda-max' && pipeline) perUs = ioBounds(spec).lambdaMaxPerUs;
  if (overlay === 'lambda-upper' && pipeline) perUs = ioBounds(spec).lambdaUpperPerUs;
  if (overlay === 'lambda-eu' && pipeline) perUs = ioBounds(spec).lambdaEuPerUs;
  if (spec.runtime === 'barrier' && (overlay === 'packing-bound' || overlay === 'balanced')) {
    const rates = barrierIntervalRates(spec);
    perUs = overlay === 'balanced' ? rates.balanced : rates.packingBound;
  }
  if (overlay === 'stream-bound' && spec.runtime === 'phaser')
    perUs = streamGraphBound(spec).throughputPerUs;
  return perUs === null || !Number.isFinite(perUs) ? null : perUs * 1e6;
}
