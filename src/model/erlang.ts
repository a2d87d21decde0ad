// Erlang B (M/M/c/c loss) and Erlang C (M/M/c wait probability): the one implementation.
import { MAX_SERVERS, ModelArgumentError, checkInteger, checkNonNegative, checkReal } from './args';
import { erlangBFractionalBase } from './gamma';

/**
 * Blocking probability of an M/M/x/x loss system with offered load a = λS Erlangs.
 * Integer x: B(0) = 1, B(k) = a·B(k−1) / (k + a·B(k−1)) (stable, no factorials).
 * Real x (Case 3, Step 2 needs Σ(1−ρ_k)c_k servers): the continuous extension
 * a^x e^{−a} / Γ(x+1, a), started at the fractional part and carried up by the same recursion,
 * so it equals the integer recursion at integers.
 */
export function erlangB(servers: number, offeredLoad: number): number {
  checkReal('servers', servers, 0, MAX_SERVERS);
  checkNonNegative('offeredLoad', offeredLoad);
  const whole = Math.floor(servers);
  const fraction = servers - whole;
  let b = fraction === 0 ? 1 : erlangBFractionalBase(fraction, offeredLoad);
  for (let k = 1; k <= whole; k++) {
    const ab = offeredLoad * b;
    b = ab / (fraction + k + ab);
  }
  return b;
}

/** Mean busy servers of the loss system: v = a(1 − B). */
export function erlangBCarried(servers: number, offeredLoad: number): number {
  return offeredLoad * (1 - erlangB(servers, offeredLoad));
}

/** Reject loads an M/M/c cannot carry: every mean is infinite when a >= c. */
export function checkStableLoad(servers: number, offeredLoad: number): void {
  if (!(offeredLoad < servers)) {
    throw new ModelArgumentError(
      'offeredLoad',
      offeredLoad,
      `0 <= offeredLoad < servers = ${servers}; the M/M/c queue is unstable otherwise`,
    );
  }
}

/** P(wait) in M/M/c: C = c·B / (c − a(1 − B)); defined only for a < c. */
export function erlangC(servers: number, offeredLoad: number): number {
  checkInteger('servers', servers, 1, MAX_SERVERS);
  checkNonNegative('offeredLoad', offeredLoad);
  checkStableLoad(servers, offeredLoad);
  const b = erlangB(servers, offeredLoad);
  return (servers * b) / (servers - offeredLoad * (1 - b));
}
