// What Dempsey's two-stage runtimes share (seed 002): a serial I/O stage and a parallel stage of
// batches, their variants (two-stage, dual-thread, serial) compared by the twin, Eq. 8–10 over
// the parallel stage's working threads, and start and end events that are whole batches.
import type { Twin } from '../sim/simulation';
import { RUNTIME_KINDS, type Runtime } from '../spec/runtimeKinds';
import { END_BOUNDS, pipelineModule, type PipelineKind } from './pipelineKinds';
import type { QuantityName } from './quantities';
import type { RuntimeModule } from './types';

export function twoStage(
  kind: Extract<Runtime, 'two-stage-output' | 'two-stage-input'>,
  differs: {
    twin: Twin;
    /** The parallel stage (formatting before the writer, reading after the scan), and whether
     * each of its threads needs a buffer of the pool to work. */
    io: { parallelStage: 0 | 1; bufferPool: boolean };
    rule: RuntimeModule['engine']['rule'];
    views: Pick<PipelineKind['views'], 'more' | 'linkCapacity'>;
    quantities: readonly QuantityName[];
  },
): RuntimeModule {
  return pipelineModule({
    spec: RUNTIME_KINDS[kind],
    twin: differs.twin,
    model: {
      overlays: END_BOUNDS,
      io: { twoStage: differs.io },
      sizing: null,
      corePerThread: true,
    },
    engine: { rule: differs.rule },
    // A start or an end is a whole batch (contracts/telemetry.md).
    live: { eventsCountItems: false },
    views: differs.views,
    quantities: { more: ['twin.time.variant', 'bound.first-out', ...differs.quantities] },
  });
}
