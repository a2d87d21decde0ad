// The static runtime: a thread-per-stage pipeline (threadPerStage.ts). Sizing splits npTh evenly
// over the parallel stages; a 1:1 BatchQueue link reports its real indices to the cache-line view.
import { firstBatchLink } from '../live/batchQueueState';
import { threadPerStage } from './threadPerStage';

export const staticRuntime = threadPerStage('static', {
  sizing: 'even-split',
  live: { batchLink: firstBatchLink },
});
