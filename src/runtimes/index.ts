// The runtime kinds' modules, one row per kind: shared code asks `runtimeOf(spec)` what a kind
// means (its twin, models, engine rules, live trackers, nouns, views and quantities) instead of
// testing `spec.runtime`. The row type is keyed by the spec's Runtime, so a kind added to
// src/spec/runtimeKinds.ts does not type-check until it has a module here (README.md).
import { BarrierTracker } from '../live/barrierState';
import { LiveStateTracker } from '../live/liveState';
import { taskLaneTracker } from '../live/taskLanes';
import type { SimOptions, Simulation } from '../sim/simulation';
import { overlayItemsPerSec, type ModelOverlay } from '../model/overlays';
import type { SizingThreads } from '../model/sizing';
import { RUNTIMES, type ExperimentSpec, type Runtime } from '../spec/experimentSpec';
import { barrierRuntime } from './barrier';
import { collapsedRuntime } from './collapsed';
import { phaserRuntime } from './phaser';
import { staticRuntime } from './static';
import { twoStageInputRuntime } from './twoStageInput';
import { twoStageOutputRuntime } from './twoStageOutput';
import type { KindView, RuntimeModule } from './types';
import { workStealingRuntime } from './workStealing';

export type { KindView, RuntimeModule } from './types';

export const RUNTIME_MODULES: { readonly [K in Runtime]: RuntimeModule } = {
  static: staticRuntime,
  collapsed: collapsedRuntime,
  'work-stealing': workStealingRuntime,
  'two-stage-output': twoStageOutputRuntime,
  'two-stage-input': twoStageInputRuntime,
  barrier: barrierRuntime,
  phaser: phaserRuntime,
};

export const runtimeOf = (spec: Pick<ExperimentSpec, 'runtime'>): RuntimeModule =>
  RUNTIME_MODULES[spec.runtime];

/** A model overlay's throughput for this spec in items/s (barrier: intervals/s), or null where
 * its kind does not list the overlay or the spec's shape does not fit it (model/overlays.ts). */
export const modelItemsPerSec = (overlay: ModelOverlay, spec: ExperimentSpec): number | null =>
  overlayItemsPerSec(overlay, spec, runtimeOf(spec).model);

/** How sizing counts this spec's threads; throws naming the kinds that are sized. */
export function sizingThreads(spec: ExperimentSpec): SizingThreads {
  const threads = runtimeOf(spec).model.sizing;
  if (threads === null) {
    const sized = RUNTIMES.filter((k) => RUNTIME_MODULES[k].model.sizing !== null);
    throw new Error(`sizing is for the ${sized.join(', ')} runtimes, not ${spec.runtime}`);
  }
  return threads;
}

/** The twin run of a spec, on its kind's twin. */
export const createSimulation = (spec: ExperimentSpec, options: SimOptions = {}): Simulation =>
  runtimeOf(spec).twin(spec, options);

/** What a run's items are called on screen (no spec yet: items). */
export const itemNoun = (spec: Pick<ExperimentSpec, 'runtime'> | null | undefined): string =>
  spec ? runtimeOf(spec).nouns.items : 'items';

/** Whether a kind-specific component draws or measures this spec's runs. */
export const kindShows = (spec: Pick<ExperimentSpec, 'runtime'>, view: KindView): boolean =>
  runtimeOf(spec).views.shows.includes(view);

/** A fresh live state for a run of this spec on this many workers over a window of `windowUs`,
 * as its kind's views read it (its BatchQueue link, how its `end` events read). */
export const newLiveTracker = (spec: ExperimentSpec, workers: number, windowUs: number) => {
  const live = runtimeOf(spec).live;
  return new LiveStateTracker(
    workers,
    spec.stages.length,
    windowUs,
    undefined,
    live.batchLink(spec),
    live.slicedEnds,
  );
};

/** The interval state of a run whose kind has barriers (null for the others). */
export const newIntervalTracker = (spec: ExperimentSpec): BarrierTracker | null =>
  runtimeOf(spec).live.intervals ? new BarrierTracker(spec.threads) : null;

/** One lane per task for a run whose kind has tasks (null for the others). */
export const newTaskLanes = (spec: ExperimentSpec, windowUs: number): LiveStateTracker | null =>
  runtimeOf(spec).live.taskLanes ? taskLaneTracker(spec.threads, windowUs) : null;
