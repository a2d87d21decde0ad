// The kinds of run a plan is made of, and how each runs on the page's engines:
// - point: x measured on real threads (trial runs or the twin size it, then SWEEP_REPEATS runs with
//   different seeds: median and spread) or simulated (the twin's repeats) — a sweep's point;
// - ratio: how many times longer one spec takes than another, both measured or both simulated;
// - run: one finished run, on real threads (with its first-out time and the output's checksum) or
//   on the twin;
// - live: the lesson's animated run, drawn by the page's live host (live.ts);
// - race: one run of the queue race (a queue, variant and chain for a fixed time).
// Steps are data (what to run, on which engine, with a label for the progress report), so a view
// that declares what it measures can turn its declaration into a plan; results come back typed by
// kind: a ChartPoint, a FinishedRun, a LiveRun or a RaceResult.
import type { RaceConfig, RaceResult } from '../../spec/raceConfig';
import type { RaceEngine } from '../race/raceEngine';
import { dataKindOf, type EngineKind } from '../pipeline/pipelineRun';
import { SimulationRun } from '../pipeline/simulationRun';
import type { ThreadsEngine } from '../pipeline/threadsEngine';
import type { ExperimentSpec } from '../../spec/experimentSpec';
import { simulatePoint, SWEEP_REPEATS, type ChartPoint, type SweepJob } from '../sweep';
import { runLive, type LiveHost, type LiveRun, type RunObserver } from './live';
import { measurePoint, measureRun, ratioPoint, simulateRun, type FinishedRun } from './measure';
import { Planner, type Plan, type PlanHandle, type PlannerOptions } from './planner';

interface Labelled {
  /** What this run is, for the progress report ("npTh = 4, measured"). */
  label: string;
}

export interface PointStep extends Labelled {
  kind: 'point';
  x: number;
  spec: ExperimentSpec;
  engine: EngineKind;
  /** Runs per point (default SWEEP_REPEATS). */
  repeats?: number;
  /** Measured: size the runs from trial runs on the threads instead of the twin's rate. */
  sizeByTrial?: boolean;
}

export interface RatioStep extends Labelled {
  kind: 'ratio';
  x: number;
  /** y = time of `of` / time of `over`, the same items. */
  of: ExperimentSpec;
  over: ExperimentSpec;
  engine: EngineKind;
  repeats?: number;
}

export interface RunStep extends Labelled {
  kind: 'run';
  spec: ExperimentSpec;
  engine: EngineKind;
}

export interface LiveStep extends Labelled {
  kind: 'live';
  spec: ExperimentSpec;
  engine: EngineKind;
  /** Sees each frame the host reads (a recorder). */
  observer?: RunObserver;
}

export interface RaceStep extends Labelled {
  kind: 'race';
  config: RaceConfig;
}

export type PlanStep = PointStep | RatioStep | RunStep | LiveStep | RaceStep;

/** What a step of each kind delivers. */
export type StepResult<S extends PlanStep> = S extends PointStep | RatioStep
  ? ChartPoint
  : S extends RunStep
    ? FinishedRun
    : S extends LiveStep
      ? LiveRun
      : S extends RaceStep
        ? RaceResult
        : never;

/** What the steps run on: the page's engines, each created on first use. */
export interface StepEngines {
  threads(): Pick<ThreadsEngine, 'run'>;
  race(): Pick<RaceEngine, 'run'>;
  live(): LiveHost;
}

/** Runs one step on `engines`; null when the signal stopped it. */
export async function runStep(
  step: PlanStep,
  engines: StepEngines,
  signal: AbortSignal,
): Promise<ChartPoint | FinishedRun | LiveRun | RaceResult | null> {
  switch (step.kind) {
    case 'point': {
      const repeats = step.repeats ?? SWEEP_REPEATS;
      if (step.engine === 'simulation') return simulatePoint(step.spec, step.x, repeats);
      const size = step.sizeByTrial ? 'trial' : undefined;
      return measurePoint(engines.threads(), step.spec, step.x, signal, repeats, size);
    }
    case 'ratio':
      // A closure, not the method: `engines` may be an object whose threads() reads `this`.
      return ratioPoint(() => engines.threads(), step, signal, step.repeats);
    case 'run':
      return step.engine === 'threads'
        ? measureRun(engines.threads(), step.spec, signal, { firstOut: true })
        : simulateRun(step.spec);
    case 'live': {
      const run =
        step.engine === 'threads' ? engines.threads().run(step.spec) : new SimulationRun(step.spec);
      return runLive(engines.live(), run, step.spec, signal, step.observer);
    }
    case 'race':
      return raceRun(engines.race(), step.config, signal);
  }
}

/** One race config on the race engine: its result, null when stopped; throws what the engine
 * reports (a config the C++ rejects, the module failing to load). */
function raceRun(
  engine: Pick<RaceEngine, 'run'>,
  config: RaceConfig,
  signal: AbortSignal,
): Promise<RaceResult | null> {
  return new Promise((resolve, reject) => {
    let result: RaceResult | null = null;
    const handle = engine.run([config], {
      result: (_index, r) => (result = r),
      done: ({ cancelled, error }) => {
        signal.removeEventListener('abort', cancel);
        if (error) reject(new Error(error));
        else resolve(cancelled ? null : result);
      },
    });
    const cancel = () => handle.cancel();
    signal.addEventListener('abort', cancel);
  });
}

/** Steps of one class take about as long as each other: a measured point as another, a
 * simulated one far less. */
export const stepClass = (step: PlanStep): string =>
  step.kind === 'race' ? 'race' : `${step.kind}:${step.engine}`;

/** A sweep's jobs (planSweep) as point steps, each labelled `name = x` and how it is run. */
export function pointSteps<J extends SweepJob>(
  jobs: readonly J[],
  name: string,
): Array<PointStep & { job: J }> {
  return jobs.map((job) => ({
    kind: 'point',
    x: job.x,
    spec: job.spec,
    engine: job.engine,
    sizeByTrial: job.sizeByTrial,
    label: `${name} = ${job.x}, ${dataKindOf(job.engine)}`,
    job,
  }));
}

/** One finished run of `spec` on `engine`, labelled `what, measured` (or simulated). */
export const runStepOf = (what: string, spec: ExperimentSpec, engine: EngineKind): RunStep => ({
  kind: 'run',
  label: `${what}, ${dataKindOf(engine)}`,
  spec,
  engine,
});

/** The page's planner: plans of PlanSteps, each result typed by its step's kind. */
export class RunPlanner extends Planner<PlanStep> {
  constructor(engines: StepEngines, options: Omit<PlannerOptions<PlanStep>, 'classOf'> = {}) {
    super((step, signal) => runStep(step, engines, signal), { ...options, classOf: stepClass });
  }

  override submit<S extends PlanStep>(plan: Plan<S, StepResult<S>>): PlanHandle {
    return super.submit(plan);
  }
}
