// The Model API of DESIGN.md: queueing primitives, exact pipeline solvers and the paper's models.
export { ModelArgumentError } from './args';
export { erlangB, erlangBCarried, erlangC } from './erlang';
export { mmc, type MmcArgs, type MmcResult } from './mmc';
export { mmck, type MmckArgs, type MmckResult } from './mmck';
export { finiteSource, type FiniteSourceArgs, type FiniteSourceResult } from './finiteSource';
export {
  closedPipeline,
  type ClosedPipelineArgs,
  type ClosedPipelineResult,
  type StationArgs,
} from './closedPipeline';
export {
  boundedPipeline,
  type BoundedPipelineArgs,
  type BoundedPipelineResult,
} from './boundedPipeline';
export { meanServiceUs, stageInputs, type MeasuredServiceUs } from './serviceTime';
export {
  closedStaticModel,
  openStaticModel,
  type ArrivalReading,
  type Case1Result,
  type Case2Result,
} from './staticModels';
export { workStealingModel, idealModel, type WorkStealingResult } from './workStealing';
export { sizing, DEFAULT_TOLERANCE, type SizingResult, type SizingThreads } from './sizing';
export { ioBounds, type IoBounds, type IoShape } from './ioBounds';
export { barrierIntervalRates, batchQueueSpeedup, littlesLaw, threadPacking } from './seedModels';
export { predictedRunTimeUs } from './runTime';
export {
  MODEL_OVERLAYS,
  OVERLAY_LABELS,
  overlayItemsPerSec,
  type KindModels,
  type ModelOverlay,
} from './overlays';
export { streamGraphBound, type StreamGraphBound } from './streamGraphBound';
export { runDisturbance, type Disturbance, type RunEvidence } from './disturbance';
