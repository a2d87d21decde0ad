// The sweep's pure parts: which x values of a swept control are measured on real threads and
// which simulated (planSweep), how many items a measured run gets (itemsForMs), and the point math
// (the median of repeats with their min and max as the spread). Running them is the run planner's
// (planner/): a sweep is a plan of point steps.
import type { EngineKind } from './pipeline/pipelineRun';
import { spreadOf } from '../model/spread';
import { MIN_MEASURED_ITEMS } from '../runtimes/engineRules';
import { simulateRepeats, TWIN_REPEATS } from '../runtimes/repeats';
import { outputsPerItem, type ExperimentSpec } from '../spec/experimentSpec';

/** A point of the model chart: measured on threads or simulated, with its spread over repeats. */
export interface ChartPoint {
  x: number;
  y: number;
  min?: number;
  max?: number;
  source: EngineKind;
}

export const SWEEP_REPEATS = TWIN_REPEATS;
/** A measured sweep point (all its repeats) should take about this long: items are trimmed to fit. */
export const THREADS_POINT_MS = 1200;
/** At most this many x values are measured on threads (evenly spaced); the rest are simulated. */
export const MAX_MEASURED_POINTS = 8;

export interface SweepJob {
  x: number;
  spec: ExperimentSpec;
  engine: EngineKind;
  /** Size a measured run from a short trial run on the same engine (trialRate) instead of asking
   * the twin: a micro-benchmark's twin at full size would take longer than the run itself, and a
   * model's rate does not know how loaded the visitor's machine is. */
  sizeByTrial?: boolean;
}

/** A control that sets a thread count (`threads`, `stages[i].threads`): its sweep stops at cores. */
export const setsThreadCount = (targets: string[]) =>
  targets.some((t) => t === 'threads' || t.endsWith('.threads'));

/**
 * Chooses each x's engine: threads where `engineOf` allows it and x ≤ maxMeasuredX, thinned to
 * MAX_MEASURED_POINTS evenly spaced values (a measured point costs about a second of real time);
 * simulation elsewhere. A sweep over thread counts measures 1..cores (maxMeasuredX = cores) and
 * simulates more: the models assume a core per thread, and what oversubscription costs is a
 * different lesson than the one the chart tells (a single Run beyond the cores still measures it).
 */
export function planSweep(
  xs: number[],
  specOf: (x: number) => ExperimentSpec,
  engineOf: (spec: ExperimentSpec) => EngineKind,
  maxMeasuredX = Number.POSITIVE_INFINITY,
): SweepJob[] {
  const jobs = xs.map((x) => {
    const spec = specOf(x);
    const engine = x <= maxMeasuredX ? engineOf(spec) : 'simulation';
    return { x, spec, engine };
  });
  const eligible = jobs.filter((j) => j.engine === 'threads');
  if (eligible.length > MAX_MEASURED_POINTS) {
    const keep = new Set<SweepJob>();
    for (let k = 0; k < MAX_MEASURED_POINTS; k++)
      keep.add(eligible[Math.round((k * (eligible.length - 1)) / (MAX_MEASURED_POINTS - 1))]);
    for (const j of eligible) if (!keep.has(j)) j.engine = 'simulation';
  }
  return jobs;
}

/** The median of the repeats' throughputs, with their min and max as the spread. */
export function spreadPoint(ys: number[], x: number, source: EngineKind): ChartPoint {
  const { median, min, max } = spreadOf(ys);
  return { x, y: median, min, max, source };
}

export function simulatePoint(
  spec: ExperimentSpec,
  x: number,
  repeats = SWEEP_REPEATS,
): ChartPoint {
  const ys = simulateRepeats(spec, repeats).map((r) => r.throughputPerUs * 1e6);
  return spreadPoint(ys, x, 'simulation');
}

/** The items a run of `spec` gets through in about `targetMs` at `expectedPerSec` items out a
 * second (default: the twin's reckoning): never more than the spec's, at least `minItems` (so a
 * real run stays short however slow the machine). */
export function itemsForMs(
  spec: ExperimentSpec,
  targetMs: number,
  minItems = MIN_MEASURED_ITEMS,
  expectedPerSec = simulatePoint(spec, 0, 1).y,
) {
  // Items in: the rate counts items out, which a stage that emits multiplies.
  const itemsIn = (expectedPerSec * targetMs) / 1000 / outputsPerItem(spec);
  return Math.round(Math.min(spec.items, Math.max(minItems, itemsIn)));
}
