// The two-stage output runtime (twoStage.ts): parallel formatting of batches into a pool of
// buffers, then a serial in-order writer. Its views show the buffer pool and compare its variants,
// batch sizes and the input end it mirrors; its formatters each need a buffer to work.
import { twoStageOutputSimulation } from '../sim/simulation';
import { twoStage } from './twoStage';

export const twoStageOutputRuntime = twoStage('two-stage-output', {
  twin: twoStageOutputSimulation,
  io: { parallelStage: 0, bufferPool: true },
  rule: null,
  views: {
    more: ['reorder'],
    // What waits between the stages: finished batches, at most the buffer pool.
    linkCapacity: (spec) => spec.buffers!,
  },
  quantities: ['twin.input-time.variant', 'twin.input-throughput.variant'],
});
