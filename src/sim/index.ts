// The discrete-event twin: same runtimes and telemetry as the C++ core, any core count, seeded.
// A spec's twin is its runtime kind's choice: createSimulation and simulateRepeats are in
// src/runtimes.
export {
  DEFAULT_STEAL_COST_US,
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
