// Repeated seeded runs of one spec, summarised by their median and spread: a simulated sweep point
// and a lesson's checked claim both rest on a few seeds, never on one lucky draw.
import type { ExperimentSpec } from '../spec/experimentSpec';
import { createSimulation, type SimResult } from './simulation';

export const TWIN_REPEATS = 3;

/** Repeat r's seed: distinct per repeat, the first one the spec's own. */
export const repeatSeed = (spec: ExperimentSpec, r: number) => (spec.seed + r * 7919) >>> 0;

export interface Spread {
  /** The middle value (the mean of the two middle ones for an even count). */
  median: number;
  min: number;
  max: number;
}

export function spreadOf(values: number[]): Spread {
  if (values.length === 0) throw new RangeError('spreadOf: no values');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { median, min: sorted[0], max: sorted[sorted.length - 1] };
}

/** The twin run to the end once per repeat seed. */
export function simulateRepeats(spec: ExperimentSpec, repeats = TWIN_REPEATS): SimResult[] {
  return Array.from({ length: repeats }, (_, r) =>
    createSimulation({ ...spec, seed: repeatSeed(spec, r) }).runToEnd(),
  );
}
