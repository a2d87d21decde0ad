// The quantities a checked claim can compare (claims.ts): model overlays, the seeded twin's run,
// and the pipeline's capacity bound — each a pure function of an ExperimentSpec. A lesson that
// needs a new kind of number adds one entry here.
import { MODEL_OVERLAYS, modelItemsPerSec, type ModelOverlay } from '../model/overlays';
import { stageInputs } from '../model/serviceTime';
import { batchTwinSteps } from '../sim/batchTwin';
import { simulateRepeats, spreadOf } from '../sim/repeats';
import type { SimResult } from '../sim/simulation';
import {
  TWO_STAGE_VARIANTS,
  type ExperimentSpec,
  type TwoStageVariant,
} from '../spec/experimentSpec';
import { inputMirror, withVariant } from '../spec/twoStageVariants';

export interface ClaimQuantity {
  /** How the name is written, for messages: `model.<overlay>`. */
  pattern: string;
  unit: 'items/s' | 's' | 'ms' | 'fraction';
  matches(name: string): boolean;
  /** The value for this spec; throws naming the quantity when it does not apply. */
  evaluate(spec: ExperimentSpec, name: string): number;
}

/** The twin's repeats per spec, kept while the lessons load (claims share specs). */
const twinRuns = new Map<string, SimResult[]>();
/** Item-stages one claim's twin runs may simulate: a lesson builds in seconds, never hangs. */
export const TWIN_BUDGET_ITEM_STAGES = 2_000_000;
function twin(spec: ExperimentSpec): SimResult[] {
  // A batch twin (two-stage I/O) steps whole batches where it can (sim/batchTwin.ts).
  const batched = spec.batchItems !== undefined;
  const work = batched ? batchTwinSteps(spec) : spec.items * spec.stages.length;
  if (work > TWIN_BUDGET_ITEM_STAGES)
    throw new Error(
      batched
        ? `the twin would simulate ${work} batch and item steps (${spec.items} items in batches of ${spec.batchItems}) for this claim, more than the build allows (${TWIN_BUDGET_ITEM_STAGES} item-stages): check it at fewer items`
        : `the twin would simulate ${spec.items} items through ${spec.stages.length} stages for this claim, more than the build allows (${TWIN_BUDGET_ITEM_STAGES} item-stages): check it at fewer items`,
    );
  const key = JSON.stringify(spec);
  let runs = twinRuns.get(key);
  if (!runs) {
    if (twinRuns.size > 256) twinRuns.clear();
    runs = simulateRepeats(spec);
    twinRuns.set(key, runs);
  }
  return runs;
}
const twinMedian = (spec: ExperimentSpec, of: (r: SimResult) => number) =>
  spreadOf(twin(spec).map(of)).median;

const exactly = (word: string) => (name: string) => name === word;

/** `<prefix>.<variant>` for each two-stage variant: the variant named, or null. */
function variantOf(prefix: string, name: string): TwoStageVariant | null {
  const v = name.slice(prefix.length + 1);
  return name.startsWith(`${prefix}.`) && (TWO_STAGE_VARIANTS as readonly string[]).includes(v)
    ? (v as TwoStageVariant)
    : null;
}
const variantPattern = (prefix: string) => `${prefix}.<${TWO_STAGE_VARIANTS.join('|')}>`;

export const CLAIM_QUANTITIES: ClaimQuantity[] = [
  {
    pattern: `model.<${MODEL_OVERLAYS.join('|')}>`,
    unit: 'items/s',
    matches: (name) => MODEL_OVERLAYS.some((m) => name === `model.${m}`),
    evaluate(spec, name) {
      const y = modelItemsPerSec(name.slice('model.'.length) as ModelOverlay, spec);
      if (y === null) throw new Error(`${name} does not apply to the ${spec.runtime} runtime`);
      return y;
    },
  },
  {
    pattern: 'twin.throughput',
    unit: 'items/s',
    matches: exactly('twin.throughput'),
    evaluate: (spec) => twinMedian(spec, (r) => r.throughputPerUs * 1e6),
  },
  {
    pattern: 'twin.time',
    unit: 's',
    matches: exactly('twin.time'),
    evaluate: (spec) => twinMedian(spec, (r) => r.makespanUs / 1e6),
  },
  {
    // A stage's busy time over the time its threads had (static: the stage's own threads; work
    // stealing: all threads, so it is that stage's share of everyone's time).
    pattern: 'twin.busy.<stage name>',
    unit: 'fraction',
    matches: (name) => name.startsWith('twin.busy.'),
    evaluate(spec, name) {
      const stageName = name.slice('twin.busy.'.length);
      const i = spec.stages.findIndex((s) => s.name === stageName);
      if (i < 0)
        throw new Error(
          `${name}: no stage named ${stageName} (stages: ${spec.stages.map((s) => s.name).join(', ')})`,
        );
      const threads = spec.runtime === 'work-stealing' ? spec.threads : spec.stages[i].threads;
      return twinMedian(spec, (r) => r.stages[i].busyUs / (threads * r.makespanUs));
    },
  },
  {
    // The two-stage output run again with another variant (Dempsey's comparison points).
    pattern: variantPattern('twin.time'),
    unit: 's',
    matches: (name) => variantOf('twin.time', name) !== null,
    evaluate: (spec, name) =>
      twinMedian(withVariant(spec, variantOf('twin.time', name)!), (r) => r.makespanUs / 1e6),
  },
  {
    // The input end: the output spec's mirror image (twoStageVariants.ts) with that variant.
    pattern: variantPattern('twin.input-time'),
    unit: 's',
    matches: (name) => variantOf('twin.input-time', name) !== null,
    evaluate: (spec, name) =>
      twinMedian(
        withVariant(inputMirror(spec), variantOf('twin.input-time', name)!),
        (r) => r.makespanUs / 1e6,
      ),
  },
  {
    // Latency: when the first item came out (a batch runtime: when its first batch was written).
    pattern: 'twin.first-out',
    unit: 'ms',
    matches: exactly('twin.first-out'),
    evaluate: (spec) => twinMedian(spec, (r) => r.firstOutUs / 1000),
  },
  {
    // X ≤ min_i c_i / T_ser_i: no pipeline runs faster than its slowest stage.
    pattern: 'bound.slowest-stage',
    unit: 'items/s',
    matches: exactly('bound.slowest-stage'),
    evaluate(spec) {
      if (spec.runtime === 'work-stealing')
        throw new Error('bound.slowest-stage is for thread-per-stage runtimes, not work stealing');
      return 1e6 * Math.min(...stageInputs(spec).map((s) => s.servers / s.serviceTimeUs));
    },
  },
];

export function formatQuantity(value: number, q: Pick<ClaimQuantity, 'unit'>): string {
  if (q.unit === 'fraction') return `${(value * 100).toFixed(1)}%`;
  return `${value.toPrecision(4)} ${q.unit}`;
}
