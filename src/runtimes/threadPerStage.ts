// The static and collapsed kinds (seed 000's Pthreads pipelines): threads of their own per stage,
// bounded or unbounded queues between stages, Case 1 and 2 models, sized by N_optimal and
// c_optimal. The twin's StaticRuntime runs both (spec/stageGroups.ts fuses the collapsed kind's
// parallel stages); they differ in how sizing steps their threads and in the BatchQueue link.
import type { SizingThreads } from '../model/sizing';
import { staticSimulation } from '../sim/simulation';
import type { Runtime } from '../spec/experimentSpec';
import { RUNTIME_KINDS } from '../spec/runtimeKinds';
import { queuedItemsRule } from './engineRules';
import { END_BOUNDS, pipelineModule } from './pipelineKinds';
import { IN_SYSTEM_QUANTITIES } from './quantities';
import type { RuntimeModule } from './types';

export function threadPerStage(
  kind: Extract<Runtime, 'static' | 'collapsed'>,
  differs: { sizing: SizingThreads; live: Partial<RuntimeModule['live']> },
): RuntimeModule {
  return pipelineModule({
    spec: RUNTIME_KINDS[kind],
    twin: staticSimulation,
    model: {
      overlays: ['case1', 'case1-per-server', 'case2', 'exact', ...END_BOUNDS],
      io: 'per-stage',
      sizing: differs.sizing,
      corePerThread: true,
    },
    engine: { rule: queuedItemsRule },
    live: differs.live,
    views: {
      adHocModels: ['case1', 'case1-per-server'],
      linkCapacity: (spec) => spec.queue.capacity,
    },
    quantities: { more: ['sizing', 'bound.slowest-stage', ...IN_SYSTEM_QUANTITIES] },
  });
}
