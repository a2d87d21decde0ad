// Shared builders for simulation tests: specs, event capture and replication statistics.
import { parseExperimentSpec, type ExperimentSpec } from '../../../src/spec/experimentSpec';
import { createSimulation, type SimOptions, type TelemetryEvent } from '../../../src/sim';

export const exponential = (meanUs: number) => ({ kind: 'exponential', meanUs });
export const fixed = (us: number) => ({ kind: 'fixed', us });

export function spec(json: Record<string, unknown>): ExperimentSpec {
  return parseExperimentSpec({ items: 1000, seed: 1, ...json });
}

export function capture(s: ExperimentSpec, options: SimOptions = {}) {
  const events: TelemetryEvent[] = [];
  const result = createSimulation(s, { ...options, sink: (e) => events.push(e) }).runToEnd();
  return { events, result };
}

/** Two-sided 97.5% Student t quantiles by degrees of freedom (for 95% intervals). */
const T975: Record<number, number> = { 9: 2.262, 14: 2.145, 19: 2.093, 29: 2.045 };

/** Mean and 95% CI half-width over independent replications (seeds 1..n). */
export function replicate(n: number, run: (seed: number) => number) {
  const values = Array.from({ length: n }, (_, i) => run(i + 1));
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const variance = values.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1);
  const t = T975[n - 1];
  if (t === undefined) throw new Error(`no t quantile for ${n} replications`);
  return { mean, halfWidth: (t * Math.sqrt(variance)) / Math.sqrt(n), values };
}
