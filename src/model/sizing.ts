// Sizing the system (seed 000 §3.4, Eq. 8–10): the throughput ceiling λ_eu, the queue size or
// tokens N_optimal that reach it, and the threads c_optimal that reach the I/O bound λ_max at a
// given N — solved through the models (Eq. 3 for Case 1, Eq. 4–5 for Case 2, Case 3 for work
// stealing), as the paper does, not read off the bounds alone.
import { LIMITS } from '../spec/limits';
import type { ExperimentSpec, StageSpec } from '../spec/experimentSpec';
import {
  parallelStageCount,
  parallelThreadsOf,
  splitParallelThreads,
} from '../spec/parallelThreads';
import { checkInteger, checkReal } from './args';
import {
  serialCapPerUs,
  stageInputs,
  totalServiceUs,
  type MeasuredServiceUs,
  type StageInput,
} from './serviceTime';
import { closedStaticModel, openStaticModel, type ArrivalReading } from './staticModels';
import { workStealingModel } from './workStealing';

/** λe(N) only approaches λ_eu, so "optimal" means within ε of it; 2% unless told otherwise. */
export const DEFAULT_TOLERANCE = 0.02;
/** N_optimal is searched up to this queue size, or this many tokens per thread. */
export const MAX_SIZE = 4096;

export interface SizingOptions {
  tolerance?: number;
  reading?: ArrivalReading;
  measuredServiceUs?: MeasuredServiceUs;
  /** N at which c_optimal is solved: the queue size (static; default the spec's) or the tokens
   * per thread (work stealing; default the spec's tokens / threads, rounded up). */
  size?: number;
  /** The cores the threads will share: adds c_optimal for them (see SizingResult.onCores). */
  cores?: number;
}

/** Which of the paper's models sizes this spec. */
export type SizingModel = 'case1' | 'case2' | 'case3';

/** How npTh meets the stages, as the runtime kind's module says (src/runtimes): a pool of
 * workers any of which serves any stage (work stealing, Case 3); the parallel stages' own threads
 * split evenly, npTh stepping by their count (thread per stage: c = npTh/npstages); or split as
 * evenly as npTh allows, stepping by 1 (collapsed). */
export type SizingThreads = 'pool' | 'even-split' | 'any-split';

export interface SizingResult {
  model: SizingModel;
  tolerance: number;
  /** Stations as the models see them (demand per item into the pipeline, servers, serial). */
  stations: StageInput[];
  /** Eq. 8: λ_upper_i ≈ c_i / T_ser_i per station, items in per µs. */
  upperPerUs: number[];
  /** Eq. 9: λ_max = min(1/T_in, 1/T_out) over the serial stages (Infinity when none). */
  lambdaMaxPerUs: number;
  /** Eq. 10: λ_eu = min(min_i λ_upper_i, λ_max) (Pthreads), min(Σ_i λ_upper_i, λ_max) (TBB). */
  ceilingPerUs: number;
  /** Case 1: the smallest queue size N with λe(N) ≥ (1 − ε)·λ_eu. Case 3: the smallest tokens
   * per thread (the paper counts N per thread: ntokens = N·npTh). null: none up to MAX_SIZE, or
   * an open pipeline (Case 2), which has no N: `why` says which. */
  nOptimal: number | null;
  /** The N c_optimal was solved at (queue size, or tokens per thread); null for Case 2. */
  size: number | null;
  /** The smallest npTh (threads of the parallel stages in total, split as the paper splits them)
   * with λe(npTh) ≥ (1 − ε)·λ_max at `size`; null when no serial stage sets λ_max or no npTh up
   * to the limits reaches it (`why`). For work stealing, the worker threads. */
  cOptimal: number | null;
  /** c_optimal per parallel stage (static: the paper's c = npTh/npstages; else = cOptimal). */
  cOptimalPerStage: number | null;
  /** λe at c_optimal and `size`, items in per µs. */
  atOptimumPerUs: number | null;
  /** With `cores`: the most those cores can run, cores/ΣT (every thread busy on every core; not in
   * the paper, which assumes a core per thread), and the smallest npTh reaching (1 − ε) of
   * min(λ_max, that). */
  onCores: { cores: number; capPerUs: number; cOptimal: number | null } | null;
  /** Why a value is null, in words for the page (empty when every value was found). */
  why: string[];
}

/**
 * Static (Case 1, bounded queues): N_optimal on the spec's threads; c_optimal at the queue size
 * N, stepping npTh by npstages for thread-per-stage specs (so each stage gets npTh/npstages) and
 * by 1 for collapsed ones. Static with unbounded queues (Case 2): no N; c_optimal where the open
 * model's throughput reaches λ_max (the paper: λ_e = min λ_upper_i = λ_max). Work stealing
 * (Case 3): N_optimal in tokens per thread, c_optimal in workers at `size` tokens per thread.
 */
export function sizing(
  spec: ExperimentSpec,
  threads: SizingThreads,
  options: SizingOptions = {},
): SizingResult {
  const tolerance = checkReal('tolerance', options.tolerance ?? DEFAULT_TOLERANCE, 0, 0.5, true);
  const measuredServiceUs = options.measuredServiceUs;
  const stations = stageInputs(spec, measuredServiceUs);
  const stealing = threads === 'pool';
  const model: SizingModel = stealing ? 'case3' : spec.queue.capacity === null ? 'case2' : 'case1';
  const upperPerUs = stations.map((s) => s.servers / s.serviceTimeUs);
  const lambdaMaxPerUs = serialCapPerUs(stations);
  const totalUs = totalServiceUs(stations);
  const ceilingPerUs = Math.min(
    stealing
      ? Math.min(spec.threads, spec.cores ?? spec.threads) / totalUs
      : Math.min(...upperPerUs),
    lambdaMaxPerUs,
  );
  const why: string[] = [];
  const ok = (rate: number, target: number) => rate >= (1 - tolerance) * target;

  const rate = (npTh: number, n: number) =>
    sizedRate(spec, threads, npTh, n, { reading: options.reading, measuredServiceUs });

  const npThNow = stealing ? spec.threads : parallelThreadsOf(spec.stages);
  let nOptimal: number | null = null;
  if (model === 'case2') why.push('an open pipeline (unbounded queues) has no N to size');
  else {
    // Work stealing counts tokens per thread, and the token total has its own limit.
    const most = stealing ? Math.floor(LIMITS.tokens[1] / npThNow) : MAX_SIZE;
    nOptimal = smallest(1, most, (n) => ok(rate(npThNow, n), ceilingPerUs));
    if (nOptimal === null)
      why.push(`no N up to ${most} brings λe within ${tolerance * 100}% of λ_eu`);
  }

  const size =
    model === 'case2'
      ? null
      : stealing
        ? checkInteger('size', options.size ?? Math.ceil(spec.tokens / spec.threads), 1, MAX_SIZE)
        : checkInteger('size', options.size ?? spec.queue.capacity!, ...LIMITS.queueCapacity);
  const [step, least, most] = threadSteps(spec, threads);
  const solveThreads = (target: number): number | null => {
    const k = smallest(least / step, Math.floor(most / step), (k) =>
      ok(rate(k * step, size ?? 1), target),
    );
    return k === null ? null : k * step;
  };
  let cOptimal: number | null = null;
  if (step === 0) why.push('no parallel stage: there are no threads to size');
  else if (!Number.isFinite(lambdaMaxPerUs))
    why.push('no serial stage: nothing sets λ_max, so there is no I/O bound to reach');
  else {
    cOptimal = solveThreads(lambdaMaxPerUs);
    if (cOptimal === null)
      why.push(
        `no npTh up to ${most} brings λe within ${tolerance * 100}% of λ_max at N = ${size}`,
      );
  }
  let onCores: SizingResult['onCores'] = null;
  if (options.cores !== undefined) {
    const cores = checkInteger('cores', options.cores, ...LIMITS.cores);
    const capPerUs = cores / totalUs;
    onCores = {
      cores,
      capPerUs,
      cOptimal: step === 0 ? null : solveThreads(Math.min(capPerUs, lambdaMaxPerUs)),
    };
  }
  return {
    model,
    tolerance,
    stations,
    upperPerUs,
    lambdaMaxPerUs,
    ceilingPerUs,
    nOptimal,
    size,
    cOptimal,
    cOptimalPerStage: cOptimal === null || step === 0 ? null : cOptimal / step,
    atOptimumPerUs: cOptimal === null ? null : rate(cOptimal, size ?? 1),
    onCores,
    why,
  };
}

/**
 * λe (items in per µs) with npTh threads — static: of the parallel stages, split as the paper
 * splits them; work stealing: workers — at size n: Case 1 at queue size n, Case 2 (open, n
 * unused) for unbounded queues, Case 3 at n tokens per thread. What sizing() searches.
 */
export function sizedRate(
  spec: ExperimentSpec,
  threads: SizingThreads,
  npTh: number,
  n: number,
  options: { reading?: ArrivalReading; measuredServiceUs?: MeasuredServiceUs } = {},
): number {
  const { reading, measuredServiceUs } = options;
  if (threads === 'pool')
    return workStealingModel(spec, {
      threads: npTh,
      tokens: Math.min(n * npTh, LIMITS.tokens[1]),
      measuredServiceUs,
    }).throughputPerUs;
  const at = withParallelThreads(spec, npTh);
  return at.queue.capacity === null
    ? openStaticModel(at, { measuredServiceUs }).throughputPerUs
    : closedStaticModel(at, { queueSize: n, reading, measuredServiceUs }).throughputPerUs;
}

/** The fewest parallel threads (npTh) the spec's runtime can run: one per parallel stage, or one
 * worker when work stealing. */
export const leastNpTh = (spec: ExperimentSpec, threads: SizingThreads): number =>
  threadSteps(spec, threads)[1];

/** npTh moves in steps of npstages for a thread-per-stage spec (each stage gets npTh/npstages, as
 * the paper sizes it), else by 1; from one thread per parallel stage up to what the stage and
 * thread limits allow. */
function threadSteps(
  spec: ExperimentSpec,
  threads: SizingThreads,
): [step: number, least: number, most: number] {
  if (threads === 'pool') return [1, 1, LIMITS.threads[1]];
  const count = parallelStageCount(spec.stages);
  const serial = spec.stages.length - count;
  const most = Math.min(count * LIMITS.stageThreads[1], LIMITS.threads[1] - serial);
  return [threads === 'even-split' ? count : 1, count, most];
}

/** The spec with npTh threads split over its parallel stages (the paper's c_i = npTh/npstages). */
export function withParallelThreads(spec: ExperimentSpec, npTh: number): ExperimentSpec {
  const stages: StageSpec[] = splitParallelThreads(spec.stages, npTh);
  const threads = stages.reduce((sum, s) => sum + s.threads, 0);
  return { ...spec, stages, threads, tokens: threads };
}

/**
 * The same work run TBB-style (Case 3) with npTh workers and N tokens per thread: every stage's
 * demand per item in as one fixed stage (the paper fused dedup's emitting and bypassed stages into
 * one TBB filter for the same reason: TBB's tokens are one item each).
 */
export function tbbVersion(
  spec: ExperimentSpec,
  npTh: number,
  tokensPerThread = 1,
): ExperimentSpec {
  const demands = stageInputs(spec);
  const groups = spec.stages.length === demands.length ? spec.stages : null;
  return {
    ...spec,
    runtime: 'work-stealing',
    stages: demands.map((d, i) => ({
      name: groups?.[i].name ?? `station ${i}`,
      mode: d.serial ? 'serial-in-order' : 'parallel',
      threads: 1,
      service: { kind: 'fixed', us: d.serviceTimeUs },
    })),
    threads: npTh,
    tokens: Math.min(LIMITS.tokens[1], tokensPerThread * npTh),
  };
}

/** Smallest n in lo..hi with reached(n), by bisection (λe grows with N and with threads in these
 * models); null when even hi falls short. */
function smallest(lo: number, hi: number, reached: (n: number) => boolean): number | null {
  if (hi < lo || !reached(hi)) return null;
  let low = lo - 1;
  let high = hi;
  while (high - low > 1) {
    const mid = (low + high) >> 1;
    if (reached(mid)) high = mid;
    else low = mid;
  }
  return high;
}
