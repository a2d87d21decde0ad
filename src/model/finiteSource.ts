// Finite source M/M/c/N/N (machine repairman): the paper's "M/M/c/N/K with K = N" (Eq. 1–3).
import {
  MAX_POPULATION,
  MAX_SERVERS,
  checkInteger,
  checkNonNegative,
  checkPositive,
  checkReal,
} from './args';
import { birthDeathProbabilities } from './birthDeath';

export interface FiniteSourceArgs {
  /** Real-valued allowed: death rate min(n, c)/S (Case 3, Step 3 uses c + v servers). */
  servers: number;
  population: number;
  thinkTime: number;
  serviceTime: number;
}

export interface FiniteSourceResult {
  /** X = Σ min(n, c)·p_n / S (completions at the station). */
  throughput: number;
  /** Eq. 3 as printed: Σ (N − n)·p_n / T_arr; equals `throughput` (a cross-check), NaN if Z = 0. */
  throughputEq3: number;
  utilization: number;
  /** Tokens at the station (queued + in service). */
  meanInSystem: number;
  /** R = N/X − Z. */
  meanResponse: number;
  p0: number;
  probabilities: Float64Array;
}

export function finiteSource(args: FiniteSourceArgs): FiniteSourceResult {
  const { servers, population, thinkTime, serviceTime } = args;
  checkReal('servers', servers, 0, MAX_SERVERS, true);
  checkInteger('population', population, 1, MAX_POPULATION);
  checkNonNegative('thinkTime', thinkTime);
  checkPositive('serviceTime', serviceTime);
  // Zero think time puts every token at the station: the chain degenerates to state N.
  const p =
    thinkTime === 0
      ? Float64Array.from({ length: population + 1 }, (_, n) => (n === population ? 1 : 0))
      : birthDeathProbabilities(
          population,
          (n) => (population - n) / thinkTime,
          (n) => Math.min(n, servers) / serviceTime,
        );
  let completions = 0;
  let arrivals = 0;
  let meanInSystem = 0;
  for (let n = 0; n <= population; n++) {
    completions += Math.min(n, servers) * p[n];
    arrivals += (population - n) * p[n];
    meanInSystem += n * p[n];
  }
  const throughput = completions / serviceTime;
  return {
    throughput,
    throughputEq3: thinkTime > 0 ? arrivals / thinkTime : NaN,
    utilization: (throughput * serviceTime) / servers,
    meanInSystem,
    meanResponse: population / throughput - thinkTime,
    p0: p[0],
    probabilities: p,
  };
}
