// Repeated seeded runs of one spec (summarised by model/spread.ts): a simulated sweep point and a
// lesson's checked claim both rest on a few seeds, never on one lucky draw.
import type { ExperimentSpec } from '../spec/experimentSpec';
import type { SimResult } from '../sim/simulation';
import { createSimulation } from './index';

export const TWIN_REPEATS = 3;

/** Repeat r's seed: distinct per repeat, the first one the spec's own. */
export const repeatSeed = (spec: ExperimentSpec, r: number) => (spec.seed + r * 7919) >>> 0;

/** The twin run to the end once per repeat seed. */
export function simulateRepeats(spec: ExperimentSpec, repeats = TWIN_REPEATS): SimResult[] {
  return Array.from({ length: repeats }, (_, r) =>
    createSimulation({ ...spec, seed: repeatSeed(spec, r) }).runToEnd(),
  );
}
