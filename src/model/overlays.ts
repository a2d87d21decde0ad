// The model overlays a lesson can draw, by name, each as throughput in items/s for one
// ExperimentSpec: what the lesson format's `models:` list, the model chart and the checked claims
// evaluate. Throughput counts items OUT of the pipeline (what the runtimes and the twin count), so
// for a spec whose stages emit several items per item it is the models' rate times that factor.
// An overlay that does not apply to a spec gives null: the closed models (Case 1, exact) need
// bounded queues, the open one (Case 2) unbounded ones, as the paper models ferret and dedup.
import { outputsPerItem, type ExperimentSpec } from '../spec/experimentSpec';
import { ModelArgumentError } from './args';
import { ioBounds, isThreadPerStage } from './ioBounds';
import { barrierIntervalRates } from './seedModels';
import { boundedPipeline } from './boundedPipeline';
import { stageInputs } from './serviceTime';
import { closedStaticModel, openStaticModel } from './staticModels';
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
  'exact',
  'case3-unclamped',
] as const;
export type ModelOverlay = (typeof MODEL_OVERLAYS)[number];

export const OVERLAY_LABELS: Record<ModelOverlay, string> = {
  case1: "Case 1, T_arr = max T_ser (the paper's text)",
  'case1-per-server': 'Case 1, T_arr = max T_ser/c (reproduces Fig. 6a)',
  case2: 'Case 2 (open, M/M/c per stage)',
  case3: 'Case 3 (work stealing)',
  ideal: 'Ideal (one central queue)',
  'lambda-max': 'λ_max = 1/T_serial (Eq. 9)',
  'lambda-upper': 'λ_upper = c/T_parallel (Eq. 8)',
  'lambda-eu': 'λ_eu = min(λ_upper, λ_max) (Eq. 10)',
  'packing-bound': 'idealised packing bound (no balancing inside an interval)',
  balanced: 'perfect balance (every core busy all interval)',
  exact: 'exact bounded-queue chain',
  'case3-unclamped': "Case 3 before our cap (the paper's Σλ'_j)",
};

/** Most states the exact chain may have for the overlay (a chain this size solves in well under a
 * second here). Larger pipelines get no exact value: ferret's six stages at N = 20 would have
 * billions of states. */
export const EXACT_MAX_STATES = 1500;

/** Model throughput in items/s (barrier runtime: intervals/s), or null when the overlay does not
 * apply to this spec. */
export function modelItemsPerSec(overlay: ModelOverlay, spec: ExperimentSpec): number | null {
  const perUs = modelPerUs(overlay, spec);
  return perUs === null || !Number.isFinite(perUs) ? null : perUs * outputsPerItem(spec) * 1e6;
}

function modelPerUs(overlay: ModelOverlay, spec: ExperimentSpec): number | null {
  const staticRuntime = isThreadPerStage(spec);
  const stealing = spec.runtime === 'work-stealing';
  const pipeline = spec.runtime !== 'barrier';
  const bounded = spec.queue.capacity !== null;
  switch (overlay) {
    case 'case1':
    case 'case1-per-server':
      if (!staticRuntime || !bounded) return null;
      return closedStaticModel(spec, {
        reading: overlay === 'case1' ? 'max-service' : 'max-service-per-server',
      }).throughputPerUs;
    case 'case2':
      return staticRuntime && !bounded ? openStaticModel(spec).throughputPerUs : null;
    case 'case3':
      return stealing ? workStealingModel(spec).throughputPerUs : null;
    case 'case3-unclamped':
      return stealing ? workStealingModel(spec).rawPerUs : null;
    case 'ideal':
      return stealing ? idealModel(spec) : null;
    case 'exact':
      return staticRuntime && bounded && !reshapes(spec) ? exactPerUs(spec) : null;
    // Eq. 8–10 (the bounds at the ends of the pipeline) apply to every pipeline runtime kind;
    // the barrier runtime is no pipeline: its overlays are in intervals/s.
    case 'lambda-max':
      return pipeline ? ioBounds(spec).lambdaMaxPerUs : null;
    case 'lambda-upper':
      return pipeline ? ioBounds(spec).lambdaUpperPerUs : null;
    case 'lambda-eu':
      return pipeline ? ioBounds(spec).lambdaEuPerUs : null;
    case 'packing-bound':
    case 'balanced': {
      if (spec.runtime !== 'barrier') return null;
      const rates = barrierIntervalRates(spec);
      return overlay === 'balanced' ? rates.balanced : rates.packingBound;
    }
  }
}

/** Emitting or bypassed stages: the chain has no such moves, so it would not be exact. */
const reshapes = (spec: ExperimentSpec) =>
  spec.stages.some((s) => (s.emits ?? 1) !== 1 || (s.bypass ?? 0) !== 0);

/** The exact CTMC of the bounded pipeline (boundedPipeline: saturated input, `capacity` waiting
 * slots before each later station, blocking after service), where it is small enough. */
function exactPerUs(spec: ExperimentSpec): number | null {
  const stations = stageInputs(spec);
  if (stations.some((s) => !(s.serviceTimeUs > 0))) return null;
  const stages = stations.map((s) => ({ serviceTime: s.serviceTimeUs, servers: s.servers }));
  const buffers = spec.queue.capacity!;
  // A page redraws its numbers every frame: solve each chain once.
  const key = JSON.stringify([stages, buffers]);
  if (!exactSolved.has(key)) {
    if (exactSolved.size >= 256) exactSolved.clear();
    try {
      exactSolved.set(
        key,
        boundedPipeline({ stages, buffers, maxStates: EXACT_MAX_STATES }).throughput,
      );
    } catch (e) {
      if (!(e instanceof ModelArgumentError)) throw e;
      exactSolved.set(key, null);
    }
  }
  return exactSolved.get(key)!;
}
const exactSolved = new Map<string, number | null>();
