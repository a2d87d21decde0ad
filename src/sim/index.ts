// The discrete-event twin: same runtimes and telemetry as the C++ core, any core count, seeded.
export {
  DEFAULT_STEAL_COST_US,
  createSimulation,
  type SimOptions,
  type SimResult,
  type Simulation,
} from './simulation';
export {
  EVENT_KINDS,
  type EventKindName,
  NO_ITEM,
  NO_STAGE,
  type StageCounters,
  type EventInput,
  type TelemetrySink,
} from './telemetry';
export { Xoshiro128 } from './prng';
export { replicate, studentT975, type ReplicationSummary } from './replications';
export { TWIN_REPEATS, repeatSeed, simulateRepeats } from './repeats';
