// Exact throughput of a closed loop of multi-server FCFS stations (N tokens; product form).
import {
  MAX_POPULATION,
  MAX_SERVERS,
  ModelArgumentError,
  checkInteger,
  checkPositive,
} from './args';

export interface StationArgs {
  serviceTime: number;
  servers: number;
}

export interface ClosedPipelineArgs {
  stages: StationArgs[];
  population: number;
}

export interface ClosedPipelineResult {
  throughput: number;
  /** X·S_i / c_i per stage. */
  utilization: number[];
  /** Mean time for a token to go round the loop, N / X (Little's law). */
  cycleTime: number;
}

/**
 * X(N) = G(N−1)/G(N), G the convolution of f_i(n) = Π_{k≤n} S_i/min(k, c_i).
 * Numerics: every f_i is scaled by α^n with α = min_i c_i/S_i (the bottleneck rate), which leaves
 * X = α·G_α(N−1)/G_α(N). The bottleneck is convolved first, so each partial G_α is nondecreasing
 * in n and can be renormalised by its last entry after each stage (no overflow for 256 servers and
 * 10,000 tokens). Beyond n = c_i, f_i is geometric, so one convolution costs O(N·c_i), not O(N²).
 */
export function closedPipeline({ stages, population }: ClosedPipelineArgs): ClosedPipelineResult {
  if (!Array.isArray(stages) || stages.length < 1) {
    throw new ModelArgumentError('stages', stages?.length ?? stages, 'a non-empty array');
  }
  stages.forEach((s, i) => {
    checkPositive(`stages[${i}].serviceTime`, s.serviceTime);
    checkInteger(`stages[${i}].servers`, s.servers, 1, MAX_SERVERS);
  });
  checkInteger('population', population, 1, MAX_POPULATION);
  const rate = (s: StationArgs) => s.servers / s.serviceTime;
  const order = stages.map((_, i) => i).sort((i, j) => rate(stages[i]) - rate(stages[j]));
  const alpha = rate(stages[order[0]]);
  let g: Float64Array | null = null;
  for (const i of order) {
    const f = scaledStationTerms(stages[i], alpha, population);
    g = g === null ? f : convolve(g, f, stages[i], alpha);
    const last = g[population];
    for (let n = 0; n <= population; n++) g[n] /= last;
  }
  const throughput = (alpha * g![population - 1]) / g![population];
  return {
    throughput,
    utilization: stages.map((s) => (throughput * s.serviceTime) / s.servers),
    cycleTime: population / throughput,
  };
}

function scaledStationTerms(s: StationArgs, alpha: number, population: number): Float64Array {
  const f = new Float64Array(population + 1);
  f[0] = 1;
  for (let n = 1; n <= population; n++)
    f[n] = (f[n - 1] * s.serviceTime * alpha) / Math.min(n, s.servers);
  return f;
}

function convolve(g: Float64Array, f: Float64Array, s: StationArgs, alpha: number): Float64Array {
  const population = g.length - 1;
  const c = s.servers;
  const ratio = (s.serviceTime * alpha) / c;
  const out = new Float64Array(population + 1);
  let tail = 0; // h(n) = Σ_{k=c}^{n} f(k)·g(n−k) = f(c)·g(n−c) + ratio·h(n−1)
  for (let n = 0; n <= population; n++) {
    let sum = 0;
    const head = Math.min(n, c - 1);
    for (let k = 0; k <= head; k++) sum += f[k] * g[n - k];
    if (n >= c) tail = f[c] * g[n - c] + ratio * tail;
    out[n] = sum + tail;
  }
  return out;
}
