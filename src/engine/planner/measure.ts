// The runs a plan's steps make on an engine: one finished run (on real threads, with its first-out
// time and what it produced; or on the twin), a measured point (trial runs to size it, then repeats
// with different seeds: their median and spread), and a ratio of two specs' points. Each takes the
// plan's stop signal and returns null when it stopped.
import {
  inFlight,
  type EngineKind,
  type PipelineOutput,
  type RunSummary,
} from '../pipeline/pipelineRun';
import type { ThreadsEngine } from '../pipeline/threadsEngine';
import { runtimeOf } from '../../runtimes';
import { followable, tapInSystem, twinRunWithStays, type InSystem } from '../../runtimes/inSystem';
import { repeatSeed } from '../../runtimes/repeats';
import type { ExperimentSpec } from '../../spec/experimentSpec';
import { copyTap, readTap } from '../../telemetry';
import {
  itemsForMs,
  simulatePoint,
  spreadPoint,
  SWEEP_REPEATS,
  THREADS_POINT_MS,
  type ChartPoint,
} from '../sweep';

/** One finished run: its numbers, what it produced (two-stage, threads only) and when its first
 * item came out (µs on the run clock; null when the telemetry does not show it). */
export interface FinishedRun {
  summary: RunSummary;
  output: PipelineOutput | null;
  firstOutUs: number | null;
  /** Little's law's L, λ and W over the run's steady window, from its telemetry (null when its
   * items cannot be followed through, or its telemetry was not read). */
  inSystem: InSystem | null;
  source: EngineKind;
}

/** Runs `spec` to the end on real threads; null when stopped (by the signal, or by the engine).
 * `firstOut` decodes the run's telemetry for its first output (sweeps skip that cost). */
export async function measureRun(
  engine: Pick<ThreadsEngine, 'run'>,
  spec: ExperimentSpec,
  signal: AbortSignal,
  { firstOut: wantFirstOut = false } = {},
): Promise<FinishedRun | null> {
  const run = engine.run(spec);
  // Until its threads are joined: a stopping run's threads still hold the engine.
  while (inFlight(run.state())) {
    if (signal.aborted) run.stop();
    await new Promise((done) => setTimeout(done, 20));
  }
  if (run.state() === 'error') throw new Error(run.error() ?? 'the threads run failed');
  if (run.state() !== 'done') return null;
  // The rings of a run nobody read still hold its first events (a full ring drops the newest).
  const tap = wantFirstOut ? run.tap() : null;
  const last = spec.stages.length - 1;
  // Reading a ring consumes it: the items in the system are counted from a copy.
  const stays = tap && followable(spec) ? tapInSystem(copyTap(tap), last) : null;
  const firstOut = tap
    ? readTap(tap).events.find((e) => e.kind === 'end' && e.stage === last)
    : undefined;
  return {
    summary: run.summary(),
    output: run.output(),
    firstOutUs: firstOut?.timeUs ?? null,
    inSystem: stays,
    source: 'threads',
  };
}

/** The same on the twin (seeded, run to the end at once). */
export function simulateRun(spec: ExperimentSpec): FinishedRun {
  const { result: r, inSystem } = twinRunWithStays(spec);
  return {
    summary: {
      items: spec.items,
      completed: r.completed,
      elapsedUs: r.makespanUs,
      itemsPerSec: r.throughputPerUs * 1e6,
    },
    output: null,
    firstOutUs: Number.isFinite(r.firstOutUs) ? r.firstOutUs : null,
    inSystem,
    source: 'simulation',
  };
}

/** A trial run starts from this many items (fewer when the spec has fewer)… */
export const TRIAL_FIRST_ITEMS = 1000;
/** …and grows until one lasts this long: long enough for a rate, short beside the point's runs. */
export const TRIAL_MS = 50;

/**
 * The rate of `spec` on this engine now, from short trial runs (null when stopped): the first of
 * TRIAL_FIRST_ITEMS items, each next one scaled to last about 2 × TRIAL_MS by the rate the last
 * one showed (×2 to ×64), until one lasts TRIAL_MS or runs the spec's whole items. The trial runs
 * under the same load as the runs it sizes, so on a busy machine they stay near their planned
 * length instead of running many times longer than a model's rate predicts.
 */
export async function trialRate(
  engine: Pick<ThreadsEngine, 'run'>,
  spec: ExperimentSpec,
  signal: AbortSignal,
): Promise<number | null> {
  let items = Math.min(spec.items, TRIAL_FIRST_ITEMS);
  for (;;) {
    const run = await measureRun(engine, { ...spec, items }, signal);
    if (!run) return null;
    const ms = run.summary.elapsedUs / 1000;
    if (ms >= TRIAL_MS || items >= spec.items) return run.summary.itemsPerSec;
    const grow = Math.min(64, Math.max(2, (2 * TRIAL_MS) / Math.max(ms, 1e-3)));
    items = Math.min(spec.items, Math.ceil(items * grow));
  }
}

/** Measures x on real threads, `repeats` runs one after another; null when stopped. Each run
 * takes items for about THREADS_POINT_MS / repeats at `expectedPerSec` (default: the twin's;
 * 'trial': trialRate's, measured first). */
export async function measurePoint(
  engine: Pick<ThreadsEngine, 'run'>,
  spec: ExperimentSpec,
  x: number,
  signal: AbortSignal,
  repeats = SWEEP_REPEATS,
  expectedPerSec: number | 'trial' = simulatePoint(spec, x, 1).y,
): Promise<ChartPoint | null> {
  const minItems = runtimeOf(spec).engine.minMeasuredItems;
  const rate = expectedPerSec === 'trial' ? await trialRate(engine, spec, signal) : expectedPerSec;
  if (rate === null) return null;
  const items = itemsForMs(spec, THREADS_POINT_MS / repeats, minItems, rate);
  const ys: number[] = [];
  for (let r = 0; r < repeats; r++) {
    const run = await measureRun(engine, { ...spec, items, seed: repeatSeed(spec, r) }, signal);
    if (!run) return null;
    ys.push(run.summary.itemsPerSec);
  }
  return spreadPoint(ys, x, 'threads');
}

/** A point whose y is how many times longer `of` takes than `over` (the same items): their
 * throughputs' ratio, over / of; `repeats` per side, measured or simulated as `engine` says. The
 * spread spans the sides' extremes (the slowest `of` over the fastest `over`…). */
export async function ratioPoint(
  threads: () => Pick<ThreadsEngine, 'run'>,
  job: { x: number; of: ExperimentSpec; over: ExperimentSpec; engine: EngineKind },
  signal: AbortSignal,
  repeats = SWEEP_REPEATS,
): Promise<ChartPoint | null> {
  const side = (spec: ExperimentSpec) =>
    job.engine === 'threads'
      ? measurePoint(threads(), spec, job.x, signal, repeats)
      : simulatePoint(spec, job.x, repeats);
  const of = await side(job.of);
  const over = of && (await side(job.over));
  if (!of || !over) return null;
  return {
    x: job.x,
    y: over.y / of.y,
    min: (over.min ?? over.y) / (of.max ?? of.y),
    max: (over.max ?? over.y) / (of.min ?? of.y),
    source: job.engine,
  };
}
