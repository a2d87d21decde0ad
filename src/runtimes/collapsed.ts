// The collapsed runtime: a thread-per-stage pipeline whose consecutive parallel stages are one
// (threadPerStage.ts). Sizing steps npTh by 1, since a fused stage takes any split; its links
// report no BatchQueue indices (the C++ reports them for the static runtime only).
import { threadPerStage } from './threadPerStage';

export const collapsedRuntime = threadPerStage('collapsed', { sizing: 'any-split', live: {} });
