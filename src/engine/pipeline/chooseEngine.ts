// Which engine runs an experiment: real threads when the page is isolated, the threads engine can
// run this spec, and the spec asks for at most cores × 4 threads; the simulation otherwise — with
// the reason in words, because every number on screen must say where it came from.
import type { ExperimentSpec } from '../../spec/experimentSpec';
import { BUDGETS } from '../../spec/limits';
import type { EngineKind } from './pipelineRun';

export const OVERSUBSCRIPTION_LIMIT = 4;
export const THREADS_ENGINE_MAX_THREADS = 64;

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
  const limit = threadsLimit(ctx.cores);
  if (threads > limit)
    return {
      engine: 'simulation',
      reason: `${threads} threads is more than ${limit} (your ${ctx.cores} cores × ${OVERSUBSCRIPTION_LIMIT}, at most ${THREADS_ENGINE_MAX_THREADS})`,
    };
  return { engine: 'threads', reason: `${threads} real threads on your ${ctx.cores} cores` };
}
