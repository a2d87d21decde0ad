// The discrete-event twin's entry points, one per runtime twin: one ExperimentSpec in, a steppable
// seeded run out. Which kind runs on which is its module's choice (src/runtimes: createSimulation).
import type { MeasuredServiceUs } from '../model/serviceTime';
import type { ExperimentSpec } from '../spec/experimentSpec';
import type { BoardWriter } from '../telemetry';
import { BarrierTwin, DEFAULT_BALANCE_PERIOD_US } from './barrierRuntime';
import { stageSamplers } from './serviceSampler';
import { PhaserRuntime } from './phaserRuntime';
import { StaticRuntime } from './staticRuntime';
import type { StageCounters, TelemetrySink } from './telemetry';
import { TwoStageInputTwin } from './twoStageInput';
import { TwoStageOutputTwin } from './twoStageOutput';
import { WorkStealingRuntime } from './workStealingRuntime';

/** A steal is a few cache misses and a CAS on the victim's deque: a few hundred ns on current
 * cores, shared memory in wasm included. 0.25 µs; lessons may expose it as a control. */
export const DEFAULT_STEAL_COST_US = 0.25;

export interface SimOptions {
  /** Receives every telemetry event in time order; omit it to run without telemetry. */
  sink?: TelemetrySink;
  /** Work stealing: µs one steal attempt takes, success or not (default DEFAULT_STEAL_COST_US). */
  stealCostUs?: number;
  /** Static/collapsed only: at most this many items inside the pipeline (a token loop). Static
   * runtimes take no `tokens` (contracts/spec.md), so the closed loop is a simulation option. */
  inFlightLimit?: number;
  /** Mean service per stage for kernel stages (µs), e.g. measured by the threads engine. */
  measuredServiceUs?: MeasuredServiceUs;
  /** Barrier runtime, os schedule: µs between load-balancer runs (src/sim/barrierRuntime.ts). */
  balancePeriodUs?: number;
  /** Phaser runs: where the twin writes its task and stream board (contracts/telemetry.md). */
  board?: BoardWriter;
}

export interface WorkerStats {
  busyUs: number;
  idleUs: number;
  blockedUs: number;
  steals: number;
  stealAttempts: number;
}

export interface SimResult {
  items: number;
  completed: number;
  makespanUs: number;
  /** When the first item came out (µs; NaN when none did). */
  firstOutUs: number;
  /** items / makespan (fill and drain included). */
  throughputPerUs: number;
  /** Completions between 10% and 90% of the items over their time span. */
  steadyThroughputPerUs: number;
  events: number;
  cores: number;
  stages: StageCounters[];
  workers: WorkerStats[];
  /** Barrier runtime: µs each core spent computing. */
  coreBusyUs?: number[];
}

export interface Simulation {
  readonly nowUs: number;
  readonly done: boolean;
  /** Why the run stopped before its end (a phaser graph that stalled), or null. */
  failure(): string | null;
  /** Phaser runs: the values the sink received, in order (twin-only values); else empty. */
  outputs(): number[];
  /** Processes every event up to and including `timeUs`. */
  advanceTo(timeUs: number): void;
  runToEnd(): SimResult;
  /** The result so far (complete once `done`). */
  result(): SimResult;
}

/** The twin of a runtime kind, as its module names it (src/runtimes): a spec and the options in,
 * a steppable seeded run out. */
export type Twin = (spec: ExperimentSpec, options?: SimOptions) => Simulation;

/** What a pipeline twin is built from, checked once for every kind (pipelineSimulation). */
interface TwinInputs {
  samplers: ReturnType<typeof stageSamplers>;
  stealCostUs: number;
  inFlightLimit: number;
  cores: number;
}
type PipelineTwin =
  StaticRuntime | WorkStealingRuntime | TwoStageOutputTwin | TwoStageInputTwin | PhaserRuntime;

/** Static and collapsed (stageGroups fuses the collapsed runtime's parallel stages). */
export const staticSimulation: Twin = (spec, options = {}) =>
  pipelineSimulation(
    spec,
    options,
    (t) => new StaticRuntime(spec, t.samplers, t.inFlightLimit, t.cores, options.sink),
  );
export const workStealingSimulation: Twin = (spec, options = {}) =>
  pipelineSimulation(
    spec,
    options,
    (t) => new WorkStealingRuntime(spec, t.samplers, t.stealCostUs, t.cores, options.sink),
  );
export const twoStageOutputSimulation: Twin = (spec, options = {}) =>
  pipelineSimulation(
    spec,
    options,
    (t) => new TwoStageOutputTwin(spec, t.samplers, t.cores, options.sink),
  );
export const twoStageInputSimulation: Twin = (spec, options = {}) =>
  pipelineSimulation(
    spec,
    options,
    (t) => new TwoStageInputTwin(spec, t.samplers, t.cores, options.sink),
  );
export const phaserSimulation: Twin = (spec, options = {}) =>
  pipelineSimulation(
    spec,
    options,
    (t) => new PhaserRuntime(spec, t.samplers, t.cores, options.sink, options.board),
  );

/**
 * A pipeline twin behind the Simulation interface. Cores default to the thread count (no
 * oversubscription); `spec.cores` below the thread count time-shares cores (see SimCore).
 * xoshiro128** streams derive from `spec.seed`: one per stage for its service draws
 * (serviceSampler.ts), one for steal victims (SimCore).
 */
function pipelineSimulation(
  spec: ExperimentSpec,
  options: SimOptions,
  twinOf: (inputs: TwinInputs) => PipelineTwin,
): Simulation {
  const samplers = stageSamplers(spec, spec.seed ^ 0x5bd1e995, options.measuredServiceUs);
  const cores = Math.min(spec.cores ?? spec.threads, spec.threads);
  const stealCostUs = options.stealCostUs ?? DEFAULT_STEAL_COST_US;
  if (!(stealCostUs >= 0 && Number.isFinite(stealCostUs))) {
    throw new RangeError(`invalid stealCostUs: ${stealCostUs} (allowed finite number >= 0)`);
  }
  const inFlightLimit = options.inFlightLimit ?? Infinity;
  if (!(inFlightLimit === Infinity || (Number.isInteger(inFlightLimit) && inFlightLimit >= 1))) {
    throw new RangeError(`invalid inFlightLimit: ${inFlightLimit} (allowed integer >= 1)`);
  }
  const runtime = twinOf({ samplers, stealCostUs, inFlightLimit, cores });
  const failure = () => (runtime instanceof PhaserRuntime ? runtime.stallMessage : null);

  const result = (): SimResult => {
    const clock = runtime.clock;
    const steal = runtime instanceof WorkStealingRuntime ? runtime : null;
    return {
      items: spec.items,
      completed: clock.completed,
      makespanUs: clock.lastUs,
      firstOutUs: clock.firstUs,
      throughputPerUs: clock.lastUs > 0 ? clock.completed / clock.lastUs : 0,
      steadyThroughputPerUs: clock.steadyThroughputPerUs(),
      events: runtime.eventCount,
      cores,
      stages: runtime.counters.map((c) => ({ ...c })),
      workers: Array.from({ length: runtime.workerCount }, (_, w) => ({
        busyUs: runtime.workerBusyUs[w],
        idleUs: runtime.workerIdleUs[w],
        blockedUs: runtime.workerBlockedUs[w],
        steals: steal?.steals[w] ?? 0,
        stealAttempts: steal?.stealAttempts[w] ?? 0,
      })),
    };
  };

  return {
    get nowUs() {
      return runtime.nowUs;
    },
    get done() {
      return runtime.clock.done;
    },
    failure,
    outputs: () => (runtime instanceof PhaserRuntime ? runtime.sinkValues : []),
    advanceTo: (timeUs) => runtime.advanceTo(timeUs),
    runToEnd: () => {
      runtime.drain();
      if (!runtime.clock.done) {
        throw new Error(
          failure() ?? `simulation stalled after ${runtime.clock.completed} of ${spec.items} items`,
        );
      }
      return result();
    },
    result,
  };
}

/** The barrier runtime's twin behind the same interface: items are intervals, workers threads. */
export const barrierSimulation: Twin = (spec, options = {}) => {
  const periodUs = options.balancePeriodUs ?? DEFAULT_BALANCE_PERIOD_US;
  if (!(periodUs > 0 && Number.isFinite(periodUs)))
    throw new RangeError(`invalid balancePeriodUs: ${periodUs} (allowed finite number > 0)`);
  const twin = new BarrierTwin(spec, periodUs, options.sink);
  const result = (): SimResult => ({
    items: spec.items,
    completed: twin.clock.completed,
    makespanUs: twin.clock.lastUs,
    firstOutUs: twin.clock.firstUs,
    throughputPerUs: twin.clock.lastUs > 0 ? twin.clock.completed / twin.clock.lastUs : 0,
    steadyThroughputPerUs: twin.clock.steadyThroughputPerUs(),
    events: twin.eventCount,
    cores: twin.cores,
    stages: twin.counters.map((c) => ({ ...c })),
    workers: Array.from({ length: twin.workerCount }, (_, w) => ({
      busyUs: twin.workerBusyUs[w],
      idleUs: twin.workerIdleUs[w],
      blockedUs: twin.workerBlockedUs[w],
      steals: 0,
      stealAttempts: 0,
    })),
    coreBusyUs: Array.from(twin.coreBusyUs),
  });
  return {
    get nowUs() {
      return twin.nowUs;
    },
    get done() {
      return twin.clock.done;
    },
    failure: () => null,
    outputs: () => [],
    advanceTo: (timeUs) => twin.advanceTo(timeUs),
    runToEnd: () => {
      twin.drain();
      if (!twin.clock.done)
        throw new Error(
          `simulation stalled after ${twin.clock.completed} of ${spec.items} intervals`,
        );
      return result();
    },
    result,
  };
};
