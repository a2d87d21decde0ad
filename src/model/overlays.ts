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

/** Which specs an overlay applies to, and its throughput there in items/µs (barrier runtime:
 * intervals/µs) — one row per overlay, so adding one names its runtimes in one place. */
interface OverlayModel {
  appliesTo(spec: ExperimentSpec): boolean;
  perUs(spec: ExperimentSpec): number;
}

const stealing = (spec: ExperimentSpec) => spec.runtime === 'work-stealing';
// Eq. 8–10 (the bounds at the ends of the pipeline) apply to every pipeline runtime kind; the
// barrier runtime is no pipeline: its overlays are in intervals/s.
const pipeline = (spec: ExperimentSpec) => spec.runtime !== 'barrier';
const barrier = (spec: ExperimentSpec) => spec.runtime === 'barrier';

const OVERLAY_MODELS: Record<ModelOverlay, OverlayModel> = {
  case1: {
    appliesTo: isThreadPerStage,
    perUs: (spec) => closedStaticModel(spec, { reading: 'max-service' }).throughputPerUs,
  },
  'case1-per-server': {
    appliesTo: isThreadPerStage,
    perUs: (spec) => closedStaticModel(spec, { reading: 'max-service-per-server' }).throughputPerUs,
  },
  case2: { appliesTo: isThreadPerStage, perUs: (spec) => openStaticModel(spec).throughputPerUs },
  case3: { appliesTo: stealing, perUs: (spec) => workStealingModel(spec).throughputPerUs },
  ideal: { appliesTo: stealing, perUs: idealModel },
  'lambda-max': { appliesTo: pipeline, perUs: (spec) => ioBounds(spec).lambdaMaxPerUs },
  'lambda-upper': { appliesTo: pipeline, perUs: (spec) => ioBounds(spec).lambdaUpperPerUs },
  'lambda-eu': { appliesTo: pipeline, perUs: (spec) => ioBounds(spec).lambdaEuPerUs },
  'packing-bound': {
    appliesTo: barrier,
    perUs: (spec) => barrierIntervalRates(spec).packingBound,
  },
  balanced: { appliesTo: barrier, perUs: (spec) => barrierIntervalRates(spec).balanced },
  'stream-bound': {
    appliesTo: (spec) => spec.runtime === 'phaser',
    perUs: (spec) => streamGraphBound(spec).throughputPerUs,
  },
};

/** Model throughput in items/s (barrier runtime: intervals/s), or null when the overlay does not
 * apply to this runtime. */
export function modelItemsPerSec(overlay: ModelOverlay, spec: ExperimentSpec): number | null {
  const model = Object.hasOwn(OVERLAY_MODELS, overlay) ? OVERLAY_MODELS[overlay] : null;
  const perUs = model?.appliesTo(spec) ? model.perUs(spec) : null;
  return perUs === null || !Number.isFinite(perUs) ? null : perUs * 1e6;
}
