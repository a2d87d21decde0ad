// M/M/c (open, infinite buffer): Erlang C metrics; used by Case 2 (Eq. 4) for each stage.
import {
  MAX_SERVERS,
  ModelArgumentError,
  checkInteger,
  checkNonNegative,
  checkPositive,
} from './args';
import { erlangC } from './erlang';
import { logGamma } from './gamma';

export interface MmcArgs {
  arrivalRate: number;
  serviceTime: number;
  servers: number;
}

export interface MmcResult {
  throughput: number;
  utilization: number;
  meanInSystem: number;
  meanInQueue: number;
  meanWait: number;
  meanResponse: number;
  waitProbability: number;
  p0: number;
}

/** Throws (naming the load) when λS >= c: an unstable M/M/c has no finite mean. */
export function mmc({ arrivalRate, serviceTime, servers }: MmcArgs): MmcResult {
  checkNonNegative('arrivalRate', arrivalRate);
  checkPositive('serviceTime', serviceTime);
  checkInteger('servers', servers, 1, MAX_SERVERS);
  const a = arrivalRate * serviceTime;
  if (!(a < servers)) {
    throw new ModelArgumentError(
      'arrivalRate',
      arrivalRate,
      `arrivalRate × serviceTime < servers = ${servers}; the M/M/c queue is unstable otherwise`,
    );
  }
  const c = erlangC(servers, a);
  const meanInQueue = (c * a) / (servers - a);
  const meanWait = (c * serviceTime) / (servers - a);
  // P(N >= c) = p_c / (1 − ρ) with p_c = p0·a^c/c!, so p0 = C(1 − ρ)·c!/a^c (in log space).
  const rho = a / servers;
  const p0 =
    a === 0 ? 1 : Math.exp(Math.log(c * (1 - rho)) + logGamma(servers + 1) - servers * Math.log(a));
  return {
    throughput: arrivalRate,
    utilization: rho,
    meanInSystem: meanInQueue + a,
    meanInQueue,
    meanWait,
    meanResponse: meanWait + serviceTime,
    waitProbability: c,
    p0,
  };
}
