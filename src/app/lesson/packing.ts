// What the thread-packing components share: the paper rows they report measured values under, the
// specs they derive from the lesson's (another thread count, schedule, grain, core budget), the
// cores a grid can name, and a twin preview of one interval for before the first run.
import type { EngineKind } from '../../engine/pipeline/pipelineRun';
import { BarrierTracker, type BarrierSnapshot } from '../../live/barrierState';
import type { ControlValues } from '../../lessons/controls';
import type { Lesson } from '../../lessons/loadLessons';
import { createSimulation } from '../../runtimes';
import { parseExperimentSpec, type ExperimentSpec, type Schedule } from '../../spec/experimentSpec';

/** Paper-row ids the components report measured values under (a lesson's `paper` rows with
 * `measured: true` use these ids): TP/TR on the visitor's cores, the packed imbalance factor, and
 * TP/TR at fine grain over TP/TR at coarse grain. */
export const PACKING_ROWS = {
  tpOverTr: 'tp-over-tr',
  imbalance: 'imbalance',
  fineOverCoarse: 'fine-over-coarse',
} as const;

/** The control a lesson may offer to switch the barrier interval's grain (a choice control). */
export const GRAIN_CONTROL = 'grain';

/** The lesson's spec with another thread count, schedule and core budget, validated (the
 * derived specs must be as valid as the lesson's own). */
export function barrierVariant(
  spec: ExperimentSpec,
  change: { threads?: number; cores?: number; schedule?: Schedule },
): ExperimentSpec {
  const threads = change.threads ?? spec.threads;
  return parseExperimentSpec({ ...spec, ...change, threads, tokens: threads });
}

/** The spec at each option of the lesson's grain choice (or just the current spec). */
export function grainSpecs(
  lesson: Lesson,
  values: ControlValues,
  specAt: (values: ControlValues) => ExperimentSpec,
): Array<{ grain: string; label: string; spec: ExperimentSpec }> {
  const grain = lesson.controls.find((c) => c.id === GRAIN_CONTROL);
  if (grain?.kind !== 'choice')
    return [{ grain: 'current', label: 'current', spec: specAt(values) }];
  return grain.choices.map((c) => ({
    grain: c.value,
    label: c.label,
    spec: specAt({ ...values, [GRAIN_CONTROL]: c.value }),
  }));
}

/** How many core columns a grid can draw: the packed core threads, the twin's simulated cores;
 * null for real threads under the OS (the browser cannot see where they run). */
export function knownCores(spec: ExperimentSpec, engine: EngineKind): number | null {
  if (spec.schedule === 'packed') return Math.min(spec.cores!, spec.threads);
  if (engine === 'threads') return null;
  return spec.cores ?? spec.threads;
}

/** PREVIEW_INTERVALS of the twin at this spec, folded as a run's would be (labelled simulated). */
export const PREVIEW_INTERVALS = 3;
export function twinPreview(spec: ExperimentSpec): BarrierSnapshot {
  const tracker = new BarrierTracker(spec.threads);
  const events: Parameters<BarrierTracker['advance']>[0] = [];
  createSimulation(
    { ...spec, items: Math.min(spec.items, PREVIEW_INTERVALS) },
    { sink: (e) => events.push({ ...e, seq: events.length }) },
  ).runToEnd();
  tracker.advance(events);
  return tracker.snapshot();
}

/** The busiest core's computing time over the least busy one's (null below two cores). */
export function imbalanceOf(coreComputeUs: number[]): number | null {
  if (coreComputeUs.length < 2) return null;
  const least = Math.min(...coreComputeUs);
  return least > 0 ? Math.max(...coreComputeUs) / least : null;
}
