// What the packing grid needs: the paper row it reports a measured value under, the cores a grid
// can name, and a twin preview of one interval for before the first run.
import type { EngineKind } from '../../engine/pipeline/pipelineRun';
import { BarrierTracker, type BarrierSnapshot } from '../../live/barrierState';
import { createSimulation } from '../../runtimes';
import type { ExperimentSpec } from '../../spec/experimentSpec';

/** Paper-row ids the packing grid reports measured values under (a lesson's `paper` row with
 * `measured: true` uses it): the packed imbalance factor. (TP/TR and its fine/coarse ratio are
 * reported by the lesson's measurement block.) */
export const PACKING_ROWS = {
  imbalance: 'imbalance',
} as const;

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
