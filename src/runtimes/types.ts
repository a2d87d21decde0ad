// What a runtime kind's module holds (one file per kind in this folder, one row each in index.ts):
// everything shared code needs to know about a kind beyond the spec's validation rules, so that
// code asks the module instead of testing `spec.runtime`. Every entry is required: a new kind
// that leaves one out does not type-check.
import type { LaneState } from '../live/liveState';
import type { KindModels, ModelOverlay } from '../model/overlays';
import type { SizingThreads } from '../model/sizing';
import type { Twin } from '../sim/simulation';
import type { ExperimentSpec } from '../spec/experimentSpec';
import type { RuntimeKindRules } from '../spec/runtimeKinds';
import type { EngineRule } from './engineRules';
import type { QuantityName } from './quantities';

/** The `::` components (src/lessons/components.ts) made for the runs of some kinds only: a kind
 * lists those that draw or measure it (a unit test holds these names to the registry's). */
export type KindView =
  | 'pipeline'
  | 'timeline'
  | 'steals'
  | 'reorder'
  | 'packing-grid'
  | 'stream-graph'
  | 'task-timeline';

/** The legend's words for lanes in a state other than busy (null: the kind never shows it). */
export type LaneNames = Partial<Record<Exclude<LaneState, 'busy'>, string | null>>;

export interface RuntimeModule {
  /** Its fields, defaults and thread and token counts, which src/spec validates. */
  spec: RuntimeKindRules;
  /** What its items are called on screen: one, several, and the count of those finished. */
  nouns: { item: string; items: string; done: string };
  /** The discrete-event twin that runs it (src/sim). */
  twin: Twin;
  model: KindModels & {
    /** How sizing (seed 000 §3.4) counts its threads; null: the kind is not sized. */
    sizing: SizingThreads | null;
    /** The models assume a core for every thread (the barrier runtime's model the cores). */
    corePerThread: boolean;
  };
  engine: {
    /** Its own rule for the engine choice, met before the common thread limit (null: none). */
    rule: EngineRule | null;
    /** The least items (barrier: intervals) a measured run needs. */
    minMeasuredItems: number;
    /** The task and stream board its runs write (phaser graphs), or null. */
    board: { taskCapacity: number; streamCapacity: number } | null;
  };
  live: {
    /** The run's first link when it is a BatchQueue whose real indices telemetry reports. */
    batchLink(spec: ExperimentSpec): { semiItems: number; itemBytes: number } | null;
    /** An `end` event closes one slice of a thread's interval: the thread is then ready, waiting
     * for a core, not idle (live/liveState.ts). */
    slicedEnds: boolean;
    /** Its runs are intervals between barriers: the interval tracker (live/barrierState.ts). */
    intervals: boolean;
    /** Its runs have tasks: one lane per task besides the threads' (live/taskLanes.ts). */
    taskLanes: boolean;
    /** A start or end event is one item (not a batch, not a slice of an interval): a replay may
     * count items from the events. */
    eventsCountItems: boolean;
    /** The timeline's legend: a state named null is left out (`seesReady`: whether the page
     * sees a thread's time waiting for a core, see app/lesson/components/TimelineBlock.tsx). */
    laneNames(seesReady: boolean): LaneNames;
    /** A lane's label when its lanes are threads rather than workers (null: "worker n"). */
    laneLabel: ((lane: number) => string) | null;
  };
  views: {
    /** The kind-specific components that draw or measure its runs. */
    shows: readonly KindView[];
    /** What an experiment given by its spec alone shows (lessons/adHocLesson.ts). */
    adHoc: {
      title(spec: ExperimentSpec): string;
      models: readonly ModelOverlay[];
      views: readonly KindView[];
    };
    /** The pipeline view draws a pool of workers, each coloured by its stage, not threads per
     * stage. */
    workerPool: boolean;
    /** What the pipeline view shows waiting before each later stage holds (null: unbounded). */
    linkCapacity(spec: ExperimentSpec): number | null;
  };
  quantities: {
    /** The quantity names claims, paper rows and measurement blocks may use for it. */
    names: readonly QuantityName[];
    /** The threads whose time a stage's busy share is out of (twin.busy.<stage>). */
    stageThreads(spec: ExperimentSpec, stage: number): number;
  };
}
