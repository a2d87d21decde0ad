// Which engine runs an experiment: real threads when the page is isolated, the threads engine can
// run this spec, and the spec asks for at most cores × 4 threads; the simulation otherwise — with
// the reason in words, because every number on screen must say where it came from. The barrier
// runtime's own rules: a packed budget needs that many of the visitor's cores (one core thread
// each), and the os schedule runs on all of them, so a spec's `cores` must be the visitor's.
import { itemsOut, type ExperimentSpec } from '../../spec/experimentSpec';
import { BUDGETS } from '../../spec/limits';
import { counted } from '../../spec/words';
import type { EngineKind } from './pipelineRun';

export const OVERSUBSCRIPTION_LIMIT = 4;
export const THREADS_ENGINE_MAX_THREADS = 64;
/** With unbounded queues every item out could wait in a queue at once, and the threads engine's
 * memory is a fixed 64 MB: it takes at most this many items out (kMaxUnboundedItemsOut in
 * wasm/include/pipelab/pipeline/runtime.hpp, which refuses more; tests/wasm checks they agree). */
export const THREADS_ENGINE_MAX_UNBOUNDED_ITEMS_OUT = 500_000;

/** The most threads a run may ask for on real threads with this many cores. */
export const threadsLimit = (cores: number) =>
  Math.min(cores * OVERSUBSCRIPTION_LIMIT, THREADS_ENGINE_MAX_THREADS);

export interface EngineContext {
  isolated: boolean;
  cores: number;
  /** The visitor asked for the simulation. */
  preferSimulation: boolean;
}

export interface ChooseEngineResult {
  engine: EngineKind;
  /** Why, in words for the page. */
  reason: string;
}

export function chooseEngine(spec: ExperimentSpec, ctx: EngineContext): ChooseEngineResult {
  const threads = spec.threads;
  if (ctx.preferSimulation) return { engine: 'simulation', reason: 'you chose the simulation' };
  if (!ctx.isolated)
    return {
      engine: 'simulation',
      reason: 'this page is not cross-origin isolated, so real threads are unavailable',
    };
  // The C++ two-stage input holds its whole text in wasm memory; the twin holds none.
  if (spec.runtime === 'two-stage-input' && spec.items > BUDGETS.inputRecords)
    return {
      engine: 'simulation',
      reason: `${spec.items} records is more than the ${BUDGETS.inputRecords} whose text real threads hold in memory`,
    };
  if (spec.runtime === 'barrier') return chooseForBarrier(spec, ctx);
  if (spec.queue.capacity === null && itemsOut(spec) > THREADS_ENGINE_MAX_UNBOUNDED_ITEMS_OUT)
    return {
      engine: 'simulation',
      reason: `${itemsOut(spec)} items out over unbounded queues could all wait in memory at once, more than the threads engine holds (${THREADS_ENGINE_MAX_UNBOUNDED_ITEMS_OUT})`,
    };
  const limit = threadsLimit(ctx.cores);
  if (threads > limit)
    return {
      engine: 'simulation',
      reason: `${threads} threads is more than ${limit} (your ${ctx.cores} cores × ${OVERSUBSCRIPTION_LIMIT}, at most ${THREADS_ENGINE_MAX_THREADS})`,
    };
  return {
    engine: 'threads',
    reason: `${counted(threads, 'real thread')} on your ${ctx.cores} cores`,
  };
}

const simulated = (reason: string): ChooseEngineResult => ({ engine: 'simulation', reason });

function chooseForBarrier(spec: ExperimentSpec, ctx: EngineContext): ChooseEngineResult {
  const { threads } = spec;
  const cores = spec.cores ?? ctx.cores;
  if (spec.schedule === 'packed') {
    if (cores > ctx.cores)
      return simulated(
        `packing onto ${cores} cores needs ${cores} cores of your own and you have ${ctx.cores}, so the twin simulates them`,
      );
    if (threads > THREADS_ENGINE_MAX_THREADS)
      return simulated(
        `${threads} threads is more than the ${THREADS_ENGINE_MAX_THREADS} the threads engine runs`,
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
  const limit = threadsLimit(ctx.cores);
  if (threads > limit)
    return simulated(
      `${threads} threads is more than ${limit} (your ${ctx.cores} cores × ${OVERSUBSCRIPTION_LIMIT}, at most ${THREADS_ENGINE_MAX_THREADS})`,
    );
  return {
    engine: 'threads',
    reason: `${counted(threads, 'real thread')} on your ${ctx.cores} cores, placed by your OS`,
  };
}
