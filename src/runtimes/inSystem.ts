// Little's law on the twin: the seeded run's start/end events through src/live/timeInSystem.ts,
// the same count the page makes from real threads' telemetry, median over the repeat seeds.
import { inSystem, type InSystem, type StayEvent } from '../live/timeInSystem';
import { spreadOf } from '../model/spread';
import type { SimResult } from '../sim/simulation';
import type { ExperimentSpec } from '../spec/experimentSpec';
import { createSimulation } from './index';
import { repeatSeed, TWIN_REPEATS } from './repeats';

export { tapInSystem, type InSystem } from '../live/timeInSystem';

/** Whether each item keeps its identity from the first stage to the last (no stage emits several
 * items or lets some bypass), so that Little's law's count applies. */
export const followable = (spec: ExperimentSpec): boolean =>
  spec.stages.every((s) => (s.emits ?? 1) === 1 && (s.bypass ?? 0) === 0);

/** Throws naming the stages whose items cannot be followed from the first stage to the last: a
 * stage that emits several items per item or lets some bypass changes what "one item" is. */
export function assertFollowable(spec: ExperimentSpec): void {
  if (followable(spec)) return;
  const odd = spec.stages.filter((s) => (s.emits ?? 1) !== 1 || (s.bypass ?? 0) !== 0);
  if (odd.length)
    throw new Error(
      `items in the system: ${odd.length > 1 ? 'stages' : 'stage'} ${odd.map((s) => s.name).join(', ')} ${odd.length > 1 ? 'emit several items or let' : 'emits several items or lets'} some bypass, so an item cannot be followed from the first stage to the last (Little's law counts items that keep their identity)`,
    );
}

/** One seeded twin run to its end, with its L, λ and W where its items can be followed (else
 * null, as when too few paired: see inSystem). One run serves both: a block's twin step reads
 * its throughput and its items in the system from the same run. */
export function twinRunWithStays(spec: ExperimentSpec): {
  result: SimResult;
  inSystem: InSystem | null;
} {
  const last = spec.stages.length - 1;
  const follow = followable(spec);
  const events: StayEvent[] = [];
  const sim = createSimulation(
    spec,
    follow
      ? {
          sink: (e) => {
            if ((e.kind === 'start' && e.stage === 0) || (e.kind === 'end' && e.stage === last))
              events.push({ kind: e.kind, stage: e.stage, item: e.item, timeUs: e.timeUs });
          },
        }
      : {},
  );
  const result = sim.runToEnd();
  return { result, inSystem: follow ? inSystem(events, { lastStage: last }) : null };
}

/** One seeded twin run's L, λ and W (null when too few items paired: see inSystem). */
export function twinInSystemRun(spec: ExperimentSpec): InSystem | null {
  assertFollowable(spec);
  return twinRunWithStays(spec).inSystem;
}

/** The median of each of L, λ, W and λ·W over the repeat seeds; throws naming the spec's shape
 * when its items cannot be followed through (too few pair up: stages that emit or bypass). */
export function twinInSystem(spec: ExperimentSpec): {
  meanInFlight: number;
  meanTimeInSystemUs: number;
  throughputPerUs: number;
  lambdaTimesW: number;
} {
  const runs = Array.from({ length: TWIN_REPEATS }, (_, r) =>
    twinInSystemRun({ ...spec, seed: repeatSeed(spec, r) }),
  );
  if (runs.some((r) => r === null))
    throw new Error(
      `items in the system: fewer than 10 of ${spec.items} items left the pipeline in the twin's runs, too few for a steady window (allowed: items >= 10)`,
    );
  const ok = runs as InSystem[];
  const median = (of: (r: InSystem) => number) => spreadOf(ok.map(of)).median;
  return {
    meanInFlight: median((r) => r.meanInFlight),
    meanTimeInSystemUs: median((r) => r.meanTimeInSystemUs),
    throughputPerUs: median((r) => r.throughputPerUs),
    lambdaTimesW: median((r) => r.throughputPerUs * r.meanTimeInSystemUs),
  };
}
