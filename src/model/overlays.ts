// The model overlays a lesson can draw, by name, each as throughput in items/s for one
// ExperimentSpec: what the lesson format's `models:` list, the model chart and the checked claims
// evaluate. Throughput counts items OUT of the pipeline (what the runtimes and the twin count), so
// for a spec whose stages emit several items per item it is the models' rate times that factor.
// An overlay that does not apply to a spec gives null: its runtime kind's module lists the overlays
// of the kind (src/runtimes); of those, the closed models (Case 1, exact) need bounded queues, the
// open one (Case 2) unbounded ones, as the paper models ferret and dedup.
import { outputsPerItem, type ExperimentSpec } from '../spec/experimentSpec';
import { ModelArgumentError } from './args';
import { ioBounds, type IoShape } from './ioBounds';
import { barrierIntervalRates, barrierWork } from './seedModels';
import { boundedPipeline } from './boundedPipeline';
import { stageInputs } from './serviceTime';
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
  'exact',
  'case3-unclamped',
] as const;
export type ModelOverlay = (typeof MODEL_OVERLAYS)[number];

export const OVERLAY_LABELS: Record<ModelOverlay, string> = {
  case1: "Case 1, T_arr = max T_ser (the paper's text)",
  'case1-per-server': 'Case 1, T_arr = max T_ser/c (our reading)',
  case2: 'Case 2 (open, M/M/c per stage)',
  case3: 'Case 3 (work stealing)',
  ideal: 'Ideal (one central queue)',
  'lambda-max': 'λ_max = 1/T_serial (Eq. 9)',
  'lambda-upper': 'λ_upper = c/T_parallel (Eq. 8)',
  'lambda-eu': 'λ_eu = min(λ_upper, λ_max) (Eq. 10)',
  'packing-bound': 'idealised packing bound (no balancing inside an interval)',
  balanced: 'perfect balance (min(T, C) cores busy all interval)',
  'stream-bound': 'Bound: threads ÷ all work, 1 ÷ slowest task',
  exact: 'exact bounded-queue chain',
  'case3-unclamped': "Case 3 before our cap (the paper's Σⱼ λ′ⱼ)",
};

/** What a runtime kind's module (src/runtimes) says about its models: the overlays drawn for it
 * and the shape of its threads for Eq. 8–10. */
export interface KindModels {
  overlays: readonly ModelOverlay[];
  io: IoShape;
}

/** Which specs of a kind that lists it an overlay applies to, and its throughput there in
 * items/µs (barrier runtime: intervals/µs) — one row per overlay. */
interface OverlayModel {
  appliesTo(spec: ExperimentSpec): boolean;
  /** null where the model cannot be solved for this spec (the exact chain too large). */
  perUs(spec: ExperimentSpec, kind: KindModels): number | null;
}

const always = () => true;
// The closed models (Case 1, the exact chain) need bounded queues, the open one (Case 2) unbounded.
const closed = (spec: ExperimentSpec) => spec.queue.capacity !== null;
const open = (spec: ExperimentSpec) => spec.queue.capacity === null;

const OVERLAY_MODELS: Record<ModelOverlay, OverlayModel> = {
  case1: {
    appliesTo: closed,
    perUs: (spec) => closedStaticModel(spec, { reading: 'max-service' }).throughputPerUs,
  },
  'case1-per-server': {
    appliesTo: closed,
    perUs: (spec) => closedStaticModel(spec, { reading: 'max-service-per-server' }).throughputPerUs,
  },
  case2: { appliesTo: open, perUs: (spec) => openStaticModel(spec).throughputPerUs },
  case3: { appliesTo: always, perUs: (spec) => workStealingModel(spec).throughputPerUs },
  'case3-unclamped': { appliesTo: always, perUs: (spec) => workStealingModel(spec).rawPerUs },
  ideal: { appliesTo: always, perUs: (spec) => idealModel(spec) },
  exact: { appliesTo: (spec) => closed(spec) && !reshapes(spec), perUs: exactPerUs },
  'lambda-max': {
    appliesTo: always,
    perUs: (spec, kind) => ioBounds(spec, kind.io).lambdaMaxPerUs,
  },
  'lambda-upper': {
    appliesTo: always,
    perUs: (spec, kind) => ioBounds(spec, kind.io).lambdaUpperPerUs,
  },
  'lambda-eu': { appliesTo: always, perUs: (spec, kind) => ioBounds(spec, kind.io).lambdaEuPerUs },
  'packing-bound': {
    appliesTo: always,
    perUs: (spec) => barrierIntervalRates(barrierWork(spec)).packingBound,
  },
  balanced: {
    appliesTo: always,
    perUs: (spec) => barrierIntervalRates(barrierWork(spec)).balanced,
  },
  'stream-bound': { appliesTo: always, perUs: (spec) => streamGraphBound(spec).throughputPerUs },
};

/** Most states the exact chain may have for the overlay (a chain this size solves in well under a
 * second here). Larger pipelines get no exact value: ferret's six stages at N = 20 would have
 * billions of states. */
export const EXACT_MAX_STATES = 1500;

/** Model throughput in items/s (barrier runtime: intervals/s), or null when the overlay does not
 * apply to this spec: its kind (`runtimeOf(spec).model`; src/runtimes asks it in modelItemsPerSec)
 * does not list it, or the spec's shape does not fit it (Case 1 on unbounded queues). */
export function overlayItemsPerSec(
  overlay: ModelOverlay,
  spec: ExperimentSpec,
  kind: KindModels,
): number | null {
  const model = Object.hasOwn(OVERLAY_MODELS, overlay) ? OVERLAY_MODELS[overlay] : null;
  const applies = model !== null && kind.overlays.includes(overlay) && model.appliesTo(spec);
  const perUs = applies ? model.perUs(spec, kind) : null;
  return perUs === null || !Number.isFinite(perUs) ? null : perUs * outputsPerItem(spec) * 1e6;
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
