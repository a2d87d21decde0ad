// The barrier runtime (seed 004, thread packing): T threads repeat (compute, barrier) for `items`
// intervals on C cores. Its items are intervals; its models are the packing bound and perfect
// balance, which model the cores (no core per thread); its lanes are threads, ready while their
// core runs a neighbour; its engine rules follow how threads are placed on the visitor's cores.
import { barrierSimulation } from '../sim/simulation';
import { RUNTIME_KINDS } from '../spec/runtimeKinds';
import { counted } from '../spec/words';
import { simulated, type EngineRule } from './engineRules';
import { COMMON_QUANTITIES } from './quantities';
import type { RuntimeModule } from './types';

/** Its items are intervals, up to a second each: a few are enough for a measured run. */
export const MIN_MEASURED_INTERVALS = 3;

/** A packed budget needs that many of the visitor's cores (one core thread each); the os schedule
 * runs on all of them, so a spec's `cores` must be the visitor's. */
const barrierEngineRule: EngineRule = (spec, ctx, limits) => {
  const { threads } = spec;
  const cores = spec.cores ?? ctx.cores;
  if (spec.schedule === 'packed') {
    if (cores > ctx.cores)
      return simulated(
        `packing onto ${cores} cores needs ${cores} cores of your own and you have ${ctx.cores}, so the twin simulates them`,
      );
    if (threads > limits.maxThreads)
      return simulated(
        `${threads} threads is more than the ${limits.maxThreads} the threads engine runs`,
      );
    const used = Math.min(cores, threads);
    return {
      engine: 'threads',
      reason: `${counted(threads, 'thread')} packed onto ${counted(used, 'real core thread')} on your ${ctx.cores} cores`,
    };
  }
  if (cores !== ctx.cores)
    return simulated(
      `your OS spreads real threads over all ${ctx.cores} of your cores, so a budget of ${counted(cores, 'core')} under OS scheduling is simulated (packed scheduling runs it on real threads)`,
    );
  if (limits.tooManyThreads) return simulated(limits.tooManyThreads);
  return {
    engine: 'threads',
    reason: `${counted(threads, 'real thread')} on your ${ctx.cores} cores, placed by your OS`,
  };
};

export const barrierRuntime: RuntimeModule = {
  spec: RUNTIME_KINDS.barrier,
  nouns: { item: 'interval', items: 'intervals', done: 'Intervals done' },
  twin: barrierSimulation,
  model: {
    overlays: ['packing-bound', 'balanced'],
    io: 'per-stage',
    sizing: null,
    corePerThread: false,
  },
  engine: { rule: barrierEngineRule, minMeasuredItems: MIN_MEASURED_INTERVALS, board: null },
  live: {
    batchLink: () => null,
    slicedEnds: true,
    intervals: true,
    taskLanes: false,
    // A start or an end is one slice of a thread's share of an interval.
    eventsCountItems: false,
    // In the packing grid's words: computing, ready while its core runs a neighbour, done and
    // waiting at the barrier.
    laneNames: (seesReady) => ({
      idle: 'done, waiting at the barrier',
      blocked: null,
      stealing: null,
      ready: seesReady ? 'ready, its core running a neighbour' : null,
    }),
    laneLabel: (lane) => `thread ${lane}`,
  },
  views: {
    shows: ['timeline', 'packing-grid'],
    adHoc: {
      title: (spec) => `Experiment: barrier, ${spec.threads} threads, ${spec.schedule} schedule`,
      models: ['packing-bound', 'balanced'],
      views: ['packing-grid', 'timeline'],
    },
    workerPool: false,
    linkCapacity: (spec) => spec.queue.capacity,
  },
  quantities: {
    names: [
      ...COMMON_QUANTITIES,
      'twin.tp-over-tr',
      'twin.tp-over-tr.table1',
      'twin.imbalance',
      'bound.packing',
    ],
    // Every thread takes a share of the one stage's work.
    stageThreads: (spec) => spec.threads,
  },
};
