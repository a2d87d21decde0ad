// What the pipeline kinds share (every kind but the barrier's): items are items, the pipeline view
// and the timeline draw them, Eq. 8–10 bound their ends, their lanes never wait for a core, and a
// stage's busy share is out of its own threads. pipelineModule fills these in around what a kind
// says of itself.
import type { Twin } from '../sim/simulation';
import type { ExperimentSpec } from '../spec/experimentSpec';
import type { RuntimeKindRules } from '../spec/runtimeKinds';
import { MIN_MEASURED_ITEMS } from './engineRules';
import { COMMON_QUANTITIES, type QuantityName } from './quantities';
import type { KindView, RuntimeModule } from './types';

/** Eq. 8–10, the bounds at the ends of the pipeline, apply to every pipeline kind. */
export const END_BOUNDS = ['lambda-max', 'lambda-upper', 'lambda-eu'] as const;

/** The pipeline view and the timeline draw every pipeline kind. */
const PIPELINE_VIEWS = ['pipeline', 'timeline'] as const;

export interface PipelineKind {
  spec: RuntimeKindRules;
  twin: Twin;
  model: RuntimeModule['model'];
  /** Its own engine rule, and a task board if its runs write one. */
  engine: Pick<RuntimeModule['engine'], 'rule'> & Partial<RuntimeModule['engine']>;
  /** What differs from a pipeline's live state (pipelineModule's defaults). */
  live?: Partial<RuntimeModule['live']>;
  views: Pick<RuntimeModule['views'], 'linkCapacity'> & {
    /** Views made for it besides the pipeline view and the timeline. */
    more?: readonly KindView[];
    /** An ad hoc experiment's models (none by default) and views (its pipeline and timeline). */
    adHocModels?: RuntimeModule['views']['adHoc']['models'];
    adHocViews?: readonly KindView[];
    workerPool?: boolean;
  };
  /** Quantities besides the common ones, and whose threads a stage's busy share is out of. */
  quantities?: {
    more?: readonly QuantityName[];
    stageThreads?: RuntimeModule['quantities']['stageThreads'];
  };
}

export function pipelineModule(kind: PipelineKind): RuntimeModule {
  const { views, quantities = {} } = kind;
  return {
    spec: kind.spec,
    nouns: { item: 'item', items: 'items', done: 'Items out' },
    twin: kind.twin,
    model: kind.model,
    engine: { minMeasuredItems: MIN_MEASURED_ITEMS, board: null, ...kind.engine },
    live: {
      batchLink: () => null,
      slicedEnds: false,
      intervals: false,
      taskLanes: false,
      eventsCountItems: true,
      // Only work stealing steals, and it alone never blocks on a full queue (its tokens hold
      // items back instead): a legend leaves out the state its kind's runs never have.
      laneNames: () => ({ stealing: null }),
      laneLabel: null,
      ...kind.live,
    },
    views: {
      shows: [...PIPELINE_VIEWS, ...(views.more ?? [])],
      adHoc: {
        title: (spec: ExperimentSpec) =>
          `Experiment: ${spec.runtime}, ${spec.stages.length} stages`,
        models: views.adHocModels ?? [],
        views: views.adHocViews ?? PIPELINE_VIEWS,
      },
      workerPool: views.workerPool ?? false,
      linkCapacity: views.linkCapacity,
    },
    quantities: {
      names: [...COMMON_QUANTITIES, ...(quantities.more ?? [])],
      stageThreads: quantities.stageThreads ?? ((spec, stage) => spec.stages[stage].threads),
    },
  };
}
