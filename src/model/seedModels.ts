// Small models from the other sources: BatchQueue speedup, Little's law, thread packing (and the
// barrier runtime's interval rates it implies).
import type { ExperimentSpec } from '../spec/experimentSpec';
import { LIMITS } from '../spec/limits';
import { ModelArgumentError, checkInteger, checkNonNegative, checkPositive } from './args';

/** BatchQueue paper: one item leaves every T_seq/n + T_comm, so speedup = T_seq/(T_seq/n + T_comm),
 * bounded by T_seq/T_comm. */
export function batchQueueSpeedup(args: {
  sequentialTime: number;
  commTime: number;
  cores: number;
}) {
  const sequentialTime = checkPositive('sequentialTime', args.sequentialTime);
  const commTime = checkNonNegative('commTime', args.commTime);
  const cores = checkInteger('cores', args.cores, ...LIMITS.cores);
  return {
    speedup: sequentialTime / (sequentialTime / cores + commTime),
    limit: commTime > 0 ? sequentialTime / commTime : Infinity,
  };
}

/** Little's law L = X·W: give exactly two of the three, get all three. */
export function littlesLaw(args: {
  throughput?: number;
  meanResponse?: number;
  meanInSystem?: number;
}) {
  const given = Object.entries(args).filter(([, v]) => v !== undefined);
  if (given.length !== 2) {
    throw new ModelArgumentError(
      'arguments',
      given.map(([k]) => k).join(', ') || 'none',
      'exactly two of throughput, meanResponse, meanInSystem',
    );
  }
  for (const [name, value] of given) checkNonNegative(name, value as number);
  const { throughput: x, meanResponse: w, meanInSystem: l } = args;
  if (l === undefined) return { throughput: x!, meanResponse: w!, meanInSystem: x! * w! };
  if (w === undefined)
    return { throughput: x!, meanResponse: x! > 0 ? l / x! : Infinity, meanInSystem: l };
  return { throughput: w > 0 ? l / w : Infinity, meanResponse: w, meanInSystem: l };
}

/**
 * Thread packing (Park et al., seed 004): T threads on C cores with a barrier every interval, the
 * work split evenly. The most loaded core runs ⌈T/C⌉ threads against T/C for a perfect split, so
 * WITHOUT ANY BALANCING INSIDE AN INTERVAL packing takes ⌈T/C⌉·C/T times as long as thread
 * reduction (threads = cores): 16 on 15 → 1.875, 16 on 7 → 1.3125, 1 whenever C divides T. This is
 * an idealised bound, not a prediction: the paper measured 1.337 (geometric mean) at 16 on 15,
 * because the OS moves threads between cores and smooths long intervals. The imbalance factor is
 * the most threads on a core over the fewest, among cores that hold any (2 at 16 on 15, 1.5 at
 * 16 on 7; 1 when T ≤ C).
 */
export function threadPacking(args: { threads: number; cores: number }) {
  const threads = checkInteger('threads', args.threads, 1, 4096);
  const cores = checkInteger('cores', args.cores, ...LIMITS.cores);
  const threadsPerBusiestCore = Math.ceil(threads / cores);
  const threadsPerIdlestCore = Math.max(1, Math.floor(threads / cores));
  return {
    threadsPerBusiestCore,
    slowdownVsReduction: (threadsPerBusiestCore * Math.min(cores, threads)) / threads,
    imbalanceFactor: threadsPerBusiestCore / threadsPerIdlestCore,
  };
}

/**
 * Intervals per µs of the barrier runtime under two idealisations: `balanced`, every core busy
 * all interval (W / min(C, T) µs per interval: thread reduction's ideal); `packingBound`, no
 * balancing inside an interval (⌈T/C⌉·W/T). W is the work of one interval, all threads together
 * (a barrier spec's one fixed stage: barrierWork), T the threads, C the cores.
 */
export function barrierIntervalRates(args: { threads: number; cores: number; workUs: number }) {
  const workUs = checkPositive('interval work (µs)', args.workUs);
  const { threads, cores } = args;
  const packing = threadPacking({ threads, cores });
  const balanced = Math.min(cores, threads) / workUs;
  return { balanced, packingBound: balanced / packing.slowdownVsReduction };
}

/** A barrier spec's interval as barrierIntervalRates takes it: its one stage's fixed service is
 * the work of one interval (NaN for any other service, which it rejects), on the spec's cores
 * (default: one per thread). */
export function barrierWork(spec: ExperimentSpec) {
  const work = spec.stages[0].service;
  return {
    threads: spec.threads,
    cores: spec.cores ?? spec.threads,
    workUs: work.kind === 'fixed' ? work.us : NaN,
  };
}
