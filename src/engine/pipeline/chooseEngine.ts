// Which engine runs an experiment: real threads when the page is isolated, the threads engine can
// run this spec, and the spec asks for at most cores × 4 threads; the simulation otherwise — with
// the reason in words, because every number on screen must say where it came from. A runtime
// kind's module adds its own rules (src/runtimes: the barrier's placement on the visitor's cores,
// the two-stage input's record budget, unbounded queues' items).
import { runtimeOf } from '../../runtimes';
import type { EngineChoice, EngineContext } from '../../runtimes/engineRules';
import type { ExperimentSpec } from '../../spec/experimentSpec';
import { counted } from '../../spec/words';
import { OVERSUBSCRIPTION_LIMIT, THREADS_ENGINE_MAX_THREADS, threadsLimit } from './threadsLimit';

export { OVERSUBSCRIPTION_LIMIT, THREADS_ENGINE_MAX_THREADS, threadsLimit } from './threadsLimit';
/** With unbounded queues every item out could wait in a queue at once, and the threads engine's
 * memory is a fixed 64 MB: it takes at most this many items out (kMaxUnboundedItemsOut in
 * wasm/include/pipelab/pipeline/runtime.hpp, which refuses more; tests/wasm checks they agree). */
export const THREADS_ENGINE_MAX_UNBOUNDED_ITEMS_OUT = 500_000;

export type { EngineContext } from '../../runtimes/engineRules';
export type ChooseEngineResult = EngineChoice;

export function chooseEngine(spec: ExperimentSpec, ctx: EngineContext): ChooseEngineResult {
  const threads = spec.threads;
  if (ctx.preferSimulation) return { engine: 'simulation', reason: 'you chose the simulation' };
  if (!ctx.isolated)
    return {
      engine: 'simulation',
      reason: 'this page is not cross-origin isolated, so real threads are unavailable',
    };
  const limit = threadsLimit(ctx.cores);
  const tooManyThreads =
    threads > limit
      ? `${threads} threads is more than ${limit} (your ${ctx.cores} cores × ${OVERSUBSCRIPTION_LIMIT}, at most ${THREADS_ENGINE_MAX_THREADS})`
      : null;
  // The kind's own rule first (two-stage input's record budget, the barrier's placement, the
  // queued kinds' unbounded queues).
  const own = runtimeOf(spec).engine.rule?.(spec, ctx, {
    threadsLimit: limit,
    maxThreads: THREADS_ENGINE_MAX_THREADS,
    maxUnboundedItemsOut: THREADS_ENGINE_MAX_UNBOUNDED_ITEMS_OUT,
    tooManyThreads,
  });
  if (own) return own;
  if (tooManyThreads) return { engine: 'simulation', reason: tooManyThreads };
  return {
    engine: 'threads',
    reason: `${counted(threads, 'real thread')} on your ${ctx.cores} cores`,
  };
}
