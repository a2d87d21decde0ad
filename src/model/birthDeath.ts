// Stationary distribution of a finite birth-death chain, computed in log space (no factorials).

/**
 * States 0..maxState with birth rate birth(n) (n → n+1) and death rate death(n) (n → n−1).
 * log p(n) = Σ_{k<n} log birth(k) − log death(k+1), normalized by log-sum-exp, so populations of
 * 10,000 and 256 servers neither overflow nor underflow where it matters.
 */
export function birthDeathProbabilities(
  maxState: number,
  birth: (n: number) => number,
  death: (n: number) => number,
): Float64Array {
  const logP = new Float64Array(maxState + 1);
  let maxLog = 0;
  for (let n = 1; n <= maxState; n++) {
    logP[n] = logP[n - 1] + Math.log(birth(n - 1)) - Math.log(death(n));
    if (logP[n] > maxLog) maxLog = logP[n];
  }
  let sum = 0;
  for (let n = 0; n <= maxState; n++) sum += Math.exp(logP[n] - maxLog);
  const logNorm = maxLog + Math.log(sum);
  const p = new Float64Array(maxState + 1);
  for (let n = 0; n <= maxState; n++) p[n] = Math.exp(logP[n] - logNorm);
  return p;
}
