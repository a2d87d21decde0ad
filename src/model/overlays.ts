// The model overlays a lesson can draw, by name, each as throughput in items/s for one
// ExperimentSpec: what the lesson format's `models:` list, the model chart and the checked claims
// evaluate.
import type { ExperimentSpec } from '../spec/experimentSpec';
import { closedStaticModel, openStaticModel } from './staticModels';
import { idealModel, workStealingModel } from './workStealing';

export const MODEL_OVERLAYS = ['case1', 'case1-per-server', 'case2', 'case3', 'ideal'] as const;
export type ModelOverlay = (typeof MODEL_OVERLAYS)[number];

export const OVERLAY_LABELS: Record<ModelOverlay, string> = {
  case1: 'Case 1 (closed, T_arr = max T_ser)',
  'case1-per-server': 'Case 1 (T_arr = max T_ser / c)',
  case2: 'Case 2 (open)',
  case3: 'Case 3 (work stealing)',
  ideal: 'Ideal (one central queue)',
};

/** Model throughput in items/s, or null when the overlay does not apply to this runtime. */
export function modelItemsPerSec(overlay: ModelOverlay, spec: ExperimentSpec): number | null {
  const staticRuntime = spec.runtime !== 'work-stealing';
  let perUs: number | null = null;
  if (overlay === 'case1' && staticRuntime)
    perUs = closedStaticModel(spec, { reading: 'max-service' }).throughputPerUs;
  if (overlay === 'case1-per-server' && staticRuntime)
    perUs = closedStaticModel(spec, { reading: 'max-service-per-server' }).throughputPerUs;
  if (overlay === 'case2' && staticRuntime) perUs = openStaticModel(spec).throughputPerUs;
  if (overlay === 'case3' && !staticRuntime) perUs = workStealingModel(spec).throughputPerUs;
  if (overlay === 'ideal' && !staticRuntime) perUs = idealModel(spec);
  return perUs === null || !Number.isFinite(perUs) ? null : perUs * 1e6;
}
