// The quantities a checked claim can compare (claims.ts): model overlays, the seeded twin's run,
// and the pipeline's capacity bound — each a pure function of an ExperimentSpec, one entry per
// name of src/runtimes/quantities.ts. A runtime kind's module lists the names its runs have: a
// quantity of another kind is rejected naming the ones this kind has.
import { MODEL_OVERLAYS, type ModelOverlay } from '../model/overlays';
import { threadPacking } from '../model/seedModels';
import { meanServiceUs, stageInputs } from '../model/serviceTime';
import { spreadOf } from '../model/spread';
import { DEFAULT_BALANCE_PERIOD_US } from '../sim/barrierRuntime';
import { batchTwinSteps } from '../sim/batchTwin';
import { sizing, tbbVersion, type SizingResult } from '../model/sizing';
import { modelItemsPerSec, runtimeOf, sizingThreads } from '../runtimes';
import { QUANTITY_NAMES, type QuantityName } from '../runtimes/quantities';
import { simulateRepeats } from '../runtimes/repeats';
import { twinInSystem } from '../runtimes/inSystem';
import { LIMITS } from '../spec/limits';
import { parallelThreadsOf } from '../spec/parallelThreads';
import type { SimResult } from '../sim/simulation';
import {
  threadReduction,
  TWO_STAGE_VARIANTS,
  type ExperimentSpec,
  type TwoStageVariant,
} from '../spec/experimentSpec';
import { inputMirror, withVariant } from '../spec/twoStageVariants';

export interface ClaimQuantity {
  name: QuantityName;
  /** How the name is written, for messages: `model.<overlay>`. */
  pattern: string;
  unit: 'items/s' | 's' | 'ms' | 'µs' | 'fraction' | 'ratio' | 'count';
  matches(name: string): boolean;
  /** The value for this spec; throws naming the quantity when it does not apply (a quantity
   * its kind lacks: naming the ones it has). */
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

/** Thread packing over thread reduction: the twin's median run time at the spec's threads over
 * its median with min(threads, cores) threads, the same total work. */
const packingRatio = (spec: ExperimentSpec) =>
  twinMedian(spec, (r) => r.makespanUs) / twinMedian(threadReduction(spec), (r) => r.makespanUs);

/** Park et al., Table I: the five benchmarks' barrier interval lengths (ms, 16 threads on 16
 * cores): Barnes, BT, Canneal, CG, FT. Their 33.7% is a geometric mean over these. */
export const PAPER_INTERVALS_MS = [596.62, 66.69, 2.42, 4.1, 248.53];

/** The spec with interval length L ms at its thread count (work T·L per interval), run for at
 * least 10 intervals and 50 balancer periods, so the balancer's phase averages out. */
function atIntervalMs(spec: ExperimentSpec, ms: number): ExperimentSpec {
  const us = ms * 1000;
  const items = Math.max(10, Math.ceil((50 * DEFAULT_BALANCE_PERIOD_US) / us));
  const [stage] = spec.stages;
  return {
    ...spec,
    items,
    stages: [{ ...stage, service: { kind: 'fixed', us: us * spec.threads } }],
  };
}

/** `twin.<metric>` with an optional `.on-<n>-cores` (the twin's threads share n cores: the
 * paper's PE column in Table 1), e.g. `twin.time.on-16-cores`. */
const TWIN_TIME = /^twin\.(throughput|time|time-for-(\d+)-items)(?:\.on-(\d+)-cores)?$/;

/** A sizing quantity: which number of the sizing result, of the spec or of its TBB version. */
const SIZING =
  /^sizing\.(n-optimal|c-optimal|c-optimal-per-stage|tbb-tokens-per-thread|tbb-c-optimal)$/;

function sizingValue(spec: ExperimentSpec, what: string): number {
  const value = (r: SizingResult, v: number | null) => {
    if (v === null) throw new Error(`sizing.${what} is not defined here: ${r.why.join('; ')}`);
    return v;
  };
  if (what.startsWith('tbb-')) {
    // The same work TBB-style with the spec's parallel threads as workers (seed 000 §3.4).
    const npTh = parallelThreadsOf(spec.stages);
    const tbb = (perThread: number) => {
      const version = tbbVersion(spec, npTh, perThread);
      return sizing(version, sizingThreads(version));
    };
    const tokens = tbb(1);
    const perThread = value(tokens, tokens.nOptimal);
    if (what === 'tbb-tokens-per-thread') return perThread;
    const threads = tbb(perThread);
    return value(threads, threads.cOptimal);
  }
  const r = sizing(spec, sizingThreads(spec));
  if (what === 'n-optimal') return value(r, r.nOptimal);
  return value(r, what === 'c-optimal' ? r.cOptimal : r.cOptimalPerStage);
}

type Entry = Omit<ClaimQuantity, 'name'>;

const QUANTITIES: Record<QuantityName, Entry> = {
  model: {
    pattern: `model.<${MODEL_OVERLAYS.join('|')}>`,
    unit: 'items/s',
    matches: (name) => MODEL_OVERLAYS.some((m) => name === `model.${m}`),
    evaluate(spec, name) {
      const y = modelItemsPerSec(name.slice('model.'.length) as ModelOverlay, spec);
      if (y === null) throw new Error(`${name} does not apply to the ${spec.runtime} runtime`);
      return y;
    },
  },
  'twin.throughput': {
    pattern: 'twin.throughput[.on-<n>-cores]',
    unit: 'items/s',
    matches: (name) => TWIN_TIME.exec(name)?.[1] === 'throughput',
    evaluate: (spec, name) => twinMedian(onCores(spec, name), (r) => r.throughputPerUs * 1e6),
  },
  'twin.time': {
    pattern: 'twin.time[.on-<n>-cores]',
    unit: 's',
    matches: (name) => TWIN_TIME.exec(name)?.[1] === 'time',
    evaluate: (spec, name) => twinMedian(onCores(spec, name), (r) => r.makespanUs / 1e6),
  },
  'twin.time-for-items': {
    // Eq. 2 with the twin's steady throughput: the time n items out would take at the rate the
    // twin holds once the pipeline is full (the paper's scale from a shorter twin run).
    pattern: 'twin.time-for-<n>-items[.on-<n>-cores]',
    unit: 's',
    matches: (name) => TWIN_TIME.exec(name)?.[2] !== undefined,
    evaluate: (spec, name) =>
      Number(TWIN_TIME.exec(name)![2]) /
      twinMedian(onCores(spec, name), (r) => r.steadyThroughputPerUs * 1e6),
  },
  sizing: {
    // Seed 000 §3.4 through src/model/sizing.ts: N_optimal (queue size), c_optimal (npTh, the
    // parallel threads in total, or per parallel stage), and for the same work run TBB-style with
    // npTh workers the tokens per thread and, at that many, the threads.
    pattern: 'sizing.<n-optimal|c-optimal|c-optimal-per-stage|tbb-tokens-per-thread|tbb-c-optimal>',
    unit: 'count',
    matches: (name) => SIZING.test(name),
    evaluate: (spec, name) => sizingValue(spec, SIZING.exec(name)![1]),
  },
  'twin.us-per-item': {
    // Run time per item: for a phaser ring, whose items are the token's hops, µs per hop.
    pattern: 'twin.us-per-item',
    unit: 'µs',
    matches: exactly('twin.us-per-item'),
    evaluate: (spec) => twinMedian(spec, (r) => r.makespanUs / r.items),
  },
  'twin.busy': {
    // A stage's busy time over the time its threads had (static: the stage's own threads; work
    // stealing and barrier: all threads, so it is that stage's share of everyone's time).
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
      const threads = runtimeOf(spec).quantities.stageThreads(spec, i);
      return twinMedian(spec, (r) => r.stages[i].busyUs / (threads * r.makespanUs));
    },
  },
  'twin.time.variant': {
    // The two-stage run again with another variant (Dempsey's comparison points).
    pattern: variantPattern('twin.time'),
    unit: 's',
    matches: (name) => variantOf('twin.time', name) !== null,
    evaluate: (spec, name) =>
      twinMedian(withVariant(spec, variantOf('twin.time', name)!), (r) => r.makespanUs / 1e6),
  },
  'twin.input-time.variant': {
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
  'twin.input-throughput.variant': {
    // The input end's rate: records read per second by its mirror image with that variant.
    pattern: variantPattern('twin.input-throughput'),
    unit: 'items/s',
    matches: (name) => variantOf('twin.input-throughput', name) !== null,
    evaluate: (spec, name) =>
      twinMedian(
        withVariant(inputMirror(spec), variantOf('twin.input-throughput', name)!),
        (r) => r.throughputPerUs * 1e6,
      ),
  },
  'bound.first-out': {
    // A batch runtime's first item cannot come out before one batch is formatted and written:
    // B × (T_format + T_write), with no wait anywhere (the two stages' mean service times).
    pattern: 'bound.first-out',
    unit: 'ms',
    matches: exactly('bound.first-out'),
    evaluate: (spec) =>
      ((spec.batchItems ?? 1) * spec.stages.reduce((us, s) => us + meanServiceUs(s.service), 0)) /
      1000,
  },
  'twin.first-out': {
    // Latency: when the first item came out (a batch runtime: when its first batch was written).
    pattern: 'twin.first-out',
    unit: 'ms',
    matches: exactly('twin.first-out'),
    evaluate: (spec) => twinMedian(spec, (r) => r.firstOutUs / 1000),
  },
  'twin.tp-over-tr': {
    pattern: 'twin.tp-over-tr',
    unit: 'ratio',
    matches: exactly('twin.tp-over-tr'),
    evaluate: (spec) => packingRatio(spec),
  },
  'twin.tp-over-tr.table1': {
    // The paper's headline figure is a geometric mean over its benchmarks: the twin's TP/TR at
    // each of Table I's interval lengths (the spec's threads, cores, schedule and barrier).
    pattern: 'twin.tp-over-tr.table1',
    unit: 'ratio',
    matches: exactly('twin.tp-over-tr.table1'),
    evaluate(spec) {
      const logs = PAPER_INTERVALS_MS.map((ms) => Math.log(packingRatio(atIntervalMs(spec, ms))));
      return Math.exp(logs.reduce((a, b) => a + b, 0) / logs.length);
    },
  },
  'twin.imbalance': {
    // The busiest core's computing time over the least busy's (packed: ⌈T/C⌉ / ⌊T/C⌋).
    pattern: 'twin.imbalance',
    unit: 'ratio',
    matches: exactly('twin.imbalance'),
    evaluate: (spec) =>
      twinMedian(spec, (r) => Math.max(...r.coreBusyUs!) / Math.min(...r.coreBusyUs!)),
  },
  'bound.packing': {
    // ⌈T/C⌉·C/T: thread packing's slowdown with no balancing inside an interval (the ideal bound).
    pattern: 'bound.packing',
    unit: 'ratio',
    matches: exactly('bound.packing'),
    evaluate: ({ threads, cores }) =>
      threadPacking({ threads, cores: cores ?? threads }).slowdownVsReduction,
  },
  'bound.slowest-stage': {
    // X ≤ min_i c_i / T_ser_i: no pipeline runs faster than its slowest stage.
    pattern: 'bound.slowest-stage',
    unit: 'items/s',
    matches: exactly('bound.slowest-stage'),
    evaluate: (spec) =>
      1e6 * Math.min(...stageInputs(spec).map((s) => s.servers / s.serviceTimeUs)),
  },
  'twin.in-flight': {
    // Little's law's L: the mean items between the first stage's start and the last's end over
    // the run's steady window (live/timeInSystem.ts).
    pattern: 'twin.in-flight',
    unit: 'count',
    matches: exactly('twin.in-flight'),
    evaluate: (spec) => twinInSystem(spec).meanInFlight,
  },
  'twin.time-in-system': {
    // W: the mean stay of the items that left in that window.
    pattern: 'twin.time-in-system',
    unit: 'ms',
    matches: exactly('twin.time-in-system'),
    evaluate: (spec) => twinInSystem(spec).meanTimeInSystemUs / 1000,
  },
  'twin.lambda-times-w': {
    // λ·W over the same window: Little's law says it equals L.
    pattern: 'twin.lambda-times-w',
    unit: 'count',
    matches: exactly('twin.lambda-times-w'),
    evaluate: (spec) => twinInSystem(spec).lambdaTimesW,
  },
};

/** How a kind's quantities are written, for messages (`model` over the kind's own overlays). */
export function patternsOf(spec: ExperimentSpec): string[] {
  const kind = runtimeOf(spec);
  return kind.quantities.names.map((name) =>
    name === 'model' ? `model.<${kind.model.overlays.join('|')}>` : QUANTITIES[name].pattern,
  );
}

/** Whether the spec's kind has the quantity `written` (a name of entry `name`). */
export function kindHas(spec: ExperimentSpec, name: QuantityName, written: string): boolean {
  const kind = runtimeOf(spec);
  if (!kind.quantities.names.includes(name)) return false;
  return name !== 'model' || kind.model.overlays.some((m) => written === `model.${m}`);
}

export const CLAIM_QUANTITIES: ClaimQuantity[] = QUANTITY_NAMES.map((name) => ({
  name,
  ...QUANTITIES[name],
  evaluate(spec: ExperimentSpec, written: string) {
    if (!kindHas(spec, name, written))
      throw new Error(
        `${written} is not a quantity of the ${spec.runtime} runtime (its quantities: ${patternsOf(spec).join(', ')})`,
      );
    return QUANTITIES[name].evaluate(spec, written);
  },
}));

/** The spec with the cores a `.on-<n>-cores` suffix names (unchanged without one). */
function onCores(spec: ExperimentSpec, name: string): ExperimentSpec {
  const cores = TWIN_TIME.exec(name)?.[3];
  if (cores === undefined) return spec;
  const [min, max] = LIMITS.cores;
  if (!(Number(cores) >= min && Number(cores) <= max))
    throw new Error(`${name}: ${cores} cores is out of range (allowed ${min}..${max})`);
  return { ...spec, cores: Number(cores) };
}

export function formatQuantity(value: number, q: Pick<ClaimQuantity, 'unit'>): string {
  if (q.unit === 'fraction') return `${(value * 100).toFixed(1)}%`;
  if (q.unit === 'ratio') return `${value.toFixed(3)}×`;
  if (q.unit === 'count') return String(value);
  return `${value.toPrecision(4)} ${q.unit}`;
}
