// The paper's work-stealing three-step model (Case 3, Eq. 5–7) and the Ideal centralized queue.
import type { ExperimentSpec } from '../spec/experimentSpec';
import { LIMITS } from '../spec/limits';
import { checkInteger } from './args';
import { erlangBCarried } from './erlang';
import { finiteSource } from './finiteSource';
import { serialCapPerUs, stageInputs, totalServiceUs, type MeasuredServiceUs } from './serviceTime';

export interface WorkStealingResult {
  /** min(raw, physical, I/O): what to plot. */
  throughputPerUs: number;
  /** Σ λ'_j before clamping (a diagnostic: too low with one token per thread, can overshoot). */
  rawPerUs: number;
  /** min(npTh, cores) / ΣT_ser. */
  physicalCapPerUs: number;
  /** Eq. 7: 1/T_ser of the slowest serial stage (Infinity when no stage is serial). */
  ioCapPerUs: number;
  /** Per thread j: tokens N_j, Step 1 rate λ_j and busy p_j, Step 2 helpers v_j, Step 3 λ'_j. */
  threads: {
    tokens: number;
    lambda: number;
    busy: number;
    helpers: number;
    lambdaStolen: number;
  }[];
}

export interface WorkStealingOptions {
  threads?: number;
  tokens?: number;
  measuredServiceUs?: MeasuredServiceUs;
}

/**
 * Per thread j: c = 1, N_j tokens (ntokens split as evenly as integers allow: N_j is ⌊ntokens/npTh⌋
 * or one more, so threads without a token show starvation), T_arr = T_ser = ΣT_ser_i.
 * Step 1: finite source → λ_j and p_j = 1 − P0 (= ρ_j since c = 1).
 * Step 2: Erlang B loss system with n_j = Σ_{k≠j}(1−ρ_k) (real-valued, continuous Erlang B) idle
 *   thieves and offered load a_j = p_j·λ_j·T_ser Erlangs (the paper's p_jλ_j is a rate; a stolen
 *   task holds a thief for T_ser); v_j = a_j(1 − B) helpers on average.
 * Step 3: thread j as a finite source with 1 + v_j servers; λ'_j its throughput (Eq. 3).
 * λe = Σλ'_j capped by Eq. 7 and by the physical limit (see WorkStealingResult).
 */
export function workStealingModel(
  spec: ExperimentSpec,
  options: WorkStealingOptions = {},
): WorkStealingResult {
  const npTh = checkInteger('threads', options.threads ?? spec.threads, ...LIMITS.threads);
  const ntokens = checkInteger('tokens', options.tokens ?? spec.tokens, ...LIMITS.tokens);
  const stages = stageInputs(spec, options.measuredServiceUs);
  const totalUs = totalServiceUs(stages);
  const tokensOf = (j: number) => Math.floor(ntokens / npTh) + (j < ntokens % npTh ? 1 : 0);
  // Threads with equal N_j have equal results: solve each distinct N once (at most two).
  const step1 = new Map<number, { lambda: number; busy: number }>();
  const perThread = Array.from({ length: npTh }, (_, j) => tokensOf(j));
  for (const n of new Set(perThread)) {
    if (n === 0) step1.set(n, { lambda: 0, busy: 0 });
    else {
      const fs = finiteSource({
        servers: 1,
        population: n,
        thinkTime: totalUs,
        serviceTime: totalUs,
      });
      step1.set(n, { lambda: fs.throughput, busy: 1 - fs.p0 });
    }
  }
  const idleTotal = perThread.reduce((sum, n) => sum + (1 - step1.get(n)!.busy), 0);
  const step3 = new Map<number, { helpers: number; lambdaStolen: number }>();
  for (const n of new Set(perThread)) {
    const { lambda, busy } = step1.get(n)!;
    if (n === 0) {
      step3.set(n, { helpers: 0, lambdaStolen: 0 });
      continue;
    }
    const thieves = Math.max(0, idleTotal - (1 - busy));
    const helpers = erlangBCarried(Math.min(thieves, 256), busy * lambda * totalUs);
    const fs = finiteSource({
      servers: Math.min(1 + helpers, 256),
      population: n,
      thinkTime: totalUs,
      serviceTime: totalUs,
    });
    step3.set(n, { helpers, lambdaStolen: fs.throughput });
  }
  const threads = perThread.map((n) => ({ tokens: n, ...step1.get(n)!, ...step3.get(n)! }));
  const rawPerUs = threads.reduce((sum, t) => sum + t.lambdaStolen, 0);
  const physicalCapPerUs = Math.min(npTh, spec.cores ?? npTh) / totalUs;
  const ioCapPerUs = serialCapPerUs(stages);
  return {
    throughputPerUs: Math.min(rawPerUs, physicalCapPerUs, ioCapPerUs),
    rawPerUs,
    physicalCapPerUs,
    ioCapPerUs,
    threads,
  };
}

/** Ideal: one centralized M/M/npTh/ntokens/ntokens queue, T_arr = T_ser = ΣT_ser_i (as Case 3). */
export function idealModel(spec: ExperimentSpec, options: WorkStealingOptions = {}): number {
  const npTh = checkInteger('threads', options.threads ?? spec.threads, ...LIMITS.threads);
  const ntokens = checkInteger('tokens', options.tokens ?? spec.tokens, ...LIMITS.tokens);
  const stages = stageInputs(spec, options.measuredServiceUs);
  const totalUs = totalServiceUs(stages);
  return finiteSource({
    servers: npTh,
    population: ntokens,
    thinkTime: totalUs,
    serviceTime: totalUs,
  }).throughput;
}
