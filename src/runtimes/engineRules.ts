// What a runtime kind adds to the engine choice (engine/pipeline/chooseEngine.ts asks each kind's
// module): its own rule, met before the rule every kind shares (at most cores × 4 threads on real
// threads), and the least items a measured run of it needs. The threads engine's numbers stay in
// engine/: chooseEngine hands them to the rule.
import { itemsOut, type ExperimentSpec } from '../spec/experimentSpec';

export interface EngineContext {
  isolated: boolean;
  cores: number;
  /** The visitor asked for the simulation. */
  preferSimulation: boolean;
}

export interface EngineChoice {
  engine: 'threads' | 'simulation';
  /** Why, in words for the page. */
  reason: string;
}

/** What the threads engine runs (engine/pipeline/chooseEngine.ts fills these in). */
export interface ThreadsEngineLimits {
  /** The most threads a run may ask for on the context's cores. */
  threadsLimit: number;
  /** The most threads the threads engine runs at all. */
  maxThreads: number;
  /** Items out it holds over unbounded queues (its memory is fixed). */
  maxUnboundedItemsOut: number;
  /** Why this spec's threads are too many for threadsLimit, or null when they fit. */
  tooManyThreads: string | null;
}

/** A kind's own say in the engine choice: a choice, or null to leave it to the common rule. */
export type EngineRule = (
  spec: ExperimentSpec,
  ctx: EngineContext,
  limits: ThreadsEngineLimits,
) => EngineChoice | null;

export const simulated = (reason: string): EngineChoice => ({ engine: 'simulation', reason });

/** The least items a measured run needs for its rate to mean something (a sweep point's runs are
 * cut to about a second, never below this). */
export const MIN_MEASURED_ITEMS = 40;

/** The kinds with queues between their stages: with unbounded ones every item out could wait in a
 * queue at once, more than the threads engine's fixed memory holds past maxUnboundedItemsOut
 * (kMaxUnboundedItemsOut in wasm/include/pipelab/pipeline/runtime.hpp refuses more). */
export const queuedItemsRule: EngineRule = (spec, _ctx, limits) =>
  spec.queue.capacity === null && itemsOut(spec) > limits.maxUnboundedItemsOut
    ? simulated(
        `${itemsOut(spec)} items out over unbounded queues could all wait in memory at once, more than the threads engine holds (${limits.maxUnboundedItemsOut})`,
      )
    : null;
