// The work-stealing runtime (seed 000's TBB-style pipeline): a pool of workers, any of which
// serves any stage, with `tokens` items in flight; Case 3 and the Ideal central queue model it,
// sizing counts its workers and tokens per worker, its workers steal and never block on a queue.
import { workStealingSimulation } from '../sim/simulation';
import { RUNTIME_KINDS } from '../spec/runtimeKinds';
import { queuedItemsRule } from './engineRules';
import { END_BOUNDS, pipelineModule } from './pipelineKinds';
import { IN_SYSTEM_QUANTITIES } from './quantities';

export const workStealingRuntime = pipelineModule({
  spec: RUNTIME_KINDS['work-stealing'],
  twin: workStealingSimulation,
  model: {
    overlays: ['case3', 'case3-unclamped', 'ideal', ...END_BOUNDS],
    io: 'pool',
    sizing: 'pool',
    corePerThread: true,
  },
  engine: { rule: queuedItemsRule },
  live: { laneNames: () => ({ blocked: null }) },
  views: {
    more: ['steals'],
    adHocModels: ['case3', 'ideal'],
    adHocViews: ['pipeline', 'steals', 'timeline'],
    workerPool: true,
    linkCapacity: (spec) => spec.queue.capacity,
  },
  quantities: {
    more: ['sizing', ...IN_SYSTEM_QUANTITIES],
    // Any worker serves any stage: a stage's busy share is out of every worker's time.
    stageThreads: (spec) => spec.threads,
  },
});
