// The lesson-component registry: each `::name` a lesson's prose may place (src/lessons/components.ts)
// and the component that draws it. A new component is one entry here and one file in components/;
// the Record type makes the registry cover exactly the names the lesson format accepts.
// Each component is a chunk of its own, loaded when a page places it: a lesson's route loads the
// ones its lesson names (preloadComponents, with the lesson's data, all at once) before the page
// draws, so LESSON_COMPONENTS draws them at once; one not loaded yet (a view another step of the
// presenter stages) shows nothing until its chunk arrives. scripts/lib/routeModules.mjs reads the
// loader lines below (`name: () => import('./components/X')`, or '../measure/X') to name each
// lesson route's chunks (the build's route preload, the load benchmark and its budget guard).
import { createElement, lazy, Suspense, type ComponentType } from 'react';
import type { ComponentName } from '../../lessons/components';

const LOADERS: Record<ComponentName, () => Promise<ComponentType>> = {
  experiment: () => import('./components/ExperimentBlock').then((m) => m.ExperimentBlock),
  pipeline: () => import('./components/PipelineBlock').then((m) => m.PipelineBlock),
  timeline: () => import('./components/TimelineBlock').then((m) => m.TimelineBlock),
  steals: () => import('./components/StealsBlock').then((m) => m.StealsBlock),
  'model-chart': () => import('./components/ModelChartBlock').then((m) => m.ModelChartBlock),
  paper: () => import('./components/PaperBlock').then((m) => m.PaperBlock),
  measure: () => import('../measure/MeasureBlock').then((m) => m.MeasureBlock),
  'queue-race': () => import('./components/QueueRaceBlock').then((m) => m.QueueRaceBlock),
  'wasm-fences': () => import('./components/WasmFencesBlock').then((m) => m.WasmFencesBlock),
  'cacheline-view': () => import('./components/CacheLineBlock').then((m) => m.CacheLineBlock),
  'false-sharing': () => import('./components/FalseSharingBlock').then((m) => m.FalseSharingBlock),
  'comm-model': () => import('./components/CommModelBlock').then((m) => m.CommModelBlock),
  'semi-latency': () => import('./components/SemiBufferBlock').then((m) => m.SemiBufferBlock),
  reorder: () => import('./components/ReorderBlock').then((m) => m.ReorderBlock),
  'packing-grid': () => import('./components/PackingGridBlock').then((m) => m.PackingGridBlock),
  'stream-graph': () => import('./components/StreamGraphBlock').then((m) => m.StreamGraphBlock),
  'task-timeline': () => import('./components/TaskTimelineBlock').then((m) => m.TaskTimelineBlock),
  'stage-breakdown': () =>
    import('./components/StageBreakdownBlock').then((m) => m.StageBreakdownBlock),
  'layout-chart': () => import('./components/LayoutChartBlock').then((m) => m.LayoutChartBlock),
  oversubscription: () =>
    import('./components/OversubscriptionBlock').then((m) => m.OversubscriptionBlock),
  sizing: () => import('./components/SizingBlock').then((m) => m.SizingBlock),
};

const loaded = new Map<ComponentName, ComponentType>();
const loading = new Map<ComponentName, Promise<ComponentType>>();

function load(name: ComponentName): Promise<ComponentType> {
  let promise = loading.get(name);
  if (!promise) {
    promise = LOADERS[name]().then((component) => {
      loaded.set(name, component);
      return component;
    });
    // A failed chunk (the network dropped) may be asked for again.
    promise.catch(() => loading.delete(name));
    loading.set(name, promise);
  }
  return promise;
}

/** Loads the named components' chunks, side by side; resolves when every one is drawable. */
export function preloadComponents(names: readonly ComponentName[]): Promise<void> {
  return Promise.all(names.map(load)).then(() => undefined);
}

/** The component drawing `name`: the loaded one, or a stand-in that loads it and draws nothing
 * until it has (the stand-in for a name stays the same component, so React keeps its place). */
function slot(name: ComponentName): ComponentType {
  const Lazy = lazy(() => load(name).then((component) => ({ default: component })));
  function Slot() {
    const Loaded = loaded.get(name);
    return Loaded
      ? createElement(Loaded)
      : createElement(Suspense, { fallback: null }, createElement(Lazy));
  }
  Slot.displayName = `Slot(${name})`;
  return Slot;
}

export const LESSON_COMPONENTS = Object.fromEntries(
  (Object.keys(LOADERS) as ComponentName[]).map((name) => [name, slot(name)]),
) as Record<ComponentName, ComponentType>;
