// Small models from the other sources: BatchQueue speedup, Little's law, thread packing.
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
 * Thread packing: T threads on C cores with a barrier every interval. The most loaded core runs
 * ⌈T/C⌉ threads, a perfect split T/C, so packing is ⌈T/C⌉·C/T slower than thread reduction
 * (threads = cores): 16 on 15 → 1.875, 16 on 7 → 1.3125. Work per interval is per thread.
 */
export function threadPacking(args: { threads: number; cores: number }) {
  const threads = checkInteger('threads', args.threads, 1, 4096);
  const cores = checkInteger('cores', args.cores, ...LIMITS.cores);
  const threadsPerBusiestCore = Math.ceil(threads / cores);
  return {
    threadsPerBusiestCore,
    slowdownVsReduction: (threadsPerBusiestCore * Math.min(cores, threads)) / threads,
  };
}
