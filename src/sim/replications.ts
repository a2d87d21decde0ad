// Independent replications of a simulated measure: mean and 95% confidence half-width (Student t).

/** t quantiles (0.975) for 1..30 degrees of freedom. */
const T975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145,
  2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048,
  2.045, 2.042,
];

/** Above 30 degrees of freedom: the Cornish–Fisher expansion around the normal quantile. */
export function studentT975(degreesOfFreedom: number): number {
  if (!(Number.isInteger(degreesOfFreedom) && degreesOfFreedom >= 1)) {
    throw new RangeError(`invalid degreesOfFreedom: ${degreesOfFreedom} (allowed integer >= 1)`);
  }
  if (degreesOfFreedom <= T975.length) return T975[degreesOfFreedom - 1];
  const z = 1.959963984540054;
  const d = degreesOfFreedom;
  return z + (z ** 3 + z) / (4 * d) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * d * d);
}

export interface ReplicationSummary {
  mean: number;
  halfWidth: number;
  values: number[];
}

/** Runs `run(seed)` for seeds firstSeed..firstSeed+n−1 (independent streams) and summarises. */
export function replicate(
  n: number,
  run: (seed: number) => number,
  firstSeed = 1,
): ReplicationSummary {
  if (!(Number.isInteger(n) && n >= 2)) {
    throw new RangeError(`invalid replications: ${n} (allowed integer >= 2)`);
  }
  const values = Array.from({ length: n }, (_, i) => run(firstSeed + i));
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const variance = values.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1);
  return { mean, halfWidth: (studentT975(n - 1) * Math.sqrt(variance)) / Math.sqrt(n), values };
}
