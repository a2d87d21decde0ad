// The model chart's sweep: each x of the swept control becomes a point — measured on real threads
// where the engine choice allows it, simulated beyond; either way the median of SWEEP_REPEATS runs
// with different seeds, with their min and max as the spread. One job at a time, each in its own
// macrotask, so the page keeps drawing.
import {
  inFlight,
  type EngineKind,
  type PipelineOutput,
  type RunSummary,
} from './pipeline/pipelineRun';
import type { ThreadsEngine } from './pipeline/threadsEngine';
import { spreadOf } from '../model/spread';
import { runtimeOf } from '../runtimes';
import { MIN_MEASURED_ITEMS } from '../runtimes/engineRules';
import { repeatSeed, simulateRepeats, TWIN_REPEATS } from '../runtimes/repeats';
import { outputsPerItem, type ExperimentSpec } from '../spec/experimentSpec';
import { readTap } from '../telemetry';

/** A point of the model chart: measured on threads or simulated, with its spread over repeats. */
export interface ChartPoint {
  x: number;
  y: number;
  min?: number;
  max?: number;
  source: EngineKind;
}

export const SWEEP_REPEATS = TWIN_REPEATS;
/** A measured sweep point (all its repeats) should take about this long: items are trimmed to fit. */
const THREADS_POINT_MS = 1200;
/** At most this many x values are measured on threads (evenly spaced); the rest are simulated. */
export const MAX_MEASURED_POINTS = 8;

export interface SweepJob {
  x: number;
  spec: ExperimentSpec;
  engine: EngineKind;
  /** Size a measured run from a short trial run on the same engine (trialRate) instead of asking
   * the twin: a micro-benchmark's twin at full size would take longer than the run itself, and a
   * model's rate does not know how loaded the visitor's machine is. */
  sizeByTrial?: boolean;
}

/** A control that sets a thread count (`threads`, `stages[i].threads`): its sweep stops at cores. */
export const setsThreadCount = (targets: string[]) =>
  targets.some((t) => t === 'threads' || t.endsWith('.threads'));

/**
 * Chooses each x's engine: threads where `engineOf` allows it and x ≤ maxMeasuredX, thinned to
 * MAX_MEASURED_POINTS evenly spaced values (a measured point costs about a second of real time);
 * simulation elsewhere. A sweep over thread counts measures 1..cores (maxMeasuredX = cores) and
 * simulates more: the models assume a core per thread, and what oversubscription costs is a
 * different lesson than the one the chart tells (a single Run beyond the cores still measures it).
 */
export function planSweep(
  xs: number[],
  specOf: (x: number) => ExperimentSpec,
  engineOf: (spec: ExperimentSpec) => EngineKind,
  maxMeasuredX = Number.POSITIVE_INFINITY,
): SweepJob[] {
  const jobs = xs.map((x) => {
    const spec = specOf(x);
    const engine = x <= maxMeasuredX ? engineOf(spec) : 'simulation';
    return { x, spec, engine };
  });
  const eligible = jobs.filter((j) => j.engine === 'threads');
  if (eligible.length > MAX_MEASURED_POINTS) {
    const keep = new Set<SweepJob>();
    for (let k = 0; k < MAX_MEASURED_POINTS; k++)
      keep.add(eligible[Math.round((k * (eligible.length - 1)) / (MAX_MEASURED_POINTS - 1))]);
    for (const j of eligible) if (!keep.has(j)) j.engine = 'simulation';
  }
  return jobs;
}

/** The median of the repeats' throughputs, with their min and max as the spread. */
function spreadPoint(ys: number[], x: number, source: EngineKind): ChartPoint {
  const { median, min, max } = spreadOf(ys);
  return { x, y: median, min, max, source };
}

export function simulatePoint(
  spec: ExperimentSpec,
  x: number,
  repeats = SWEEP_REPEATS,
): ChartPoint {
  const ys = simulateRepeats(spec, repeats).map((r) => r.throughputPerUs * 1e6);
  return spreadPoint(ys, x, 'simulation');
}

/** The items a run of `spec` gets through in about `targetMs` at `expectedPerSec` items out a
 * second (default: the twin's reckoning): never more than the spec's, at least `minItems` (so a
 * real run stays short however slow the machine). */
export function itemsForMs(
  spec: ExperimentSpec,
  targetMs: number,
  minItems = MIN_MEASURED_ITEMS,
  expectedPerSec = simulatePoint(spec, 0, 1).y,
) {
  // Items in: the rate counts items out, which a stage that emits multiplies.
  const itemsIn = (expectedPerSec * targetMs) / 1000 / outputsPerItem(spec);
  return Math.round(Math.min(spec.items, Math.max(minItems, itemsIn)));
}

/** One finished run: its numbers, what it produced (two-stage, threads only) and when its first
 * item came out (µs on the run clock; null when the telemetry does not show it). */
export interface FinishedRun {
  summary: RunSummary;
  output: PipelineOutput | null;
  firstOutUs: number | null;
  source: EngineKind;
}

/** Runs `spec` to the end on real threads; null when cancelled or replaced by another run.
 * `firstOut` decodes the run's telemetry for its first output (sweeps skip that cost). */
export async function measureRun(
  engine: Pick<ThreadsEngine, 'run'>,
  spec: ExperimentSpec,
  cancelled: () => boolean,
  { firstOut: wantFirstOut = false } = {},
): Promise<FinishedRun | null> {
  const run = engine.run(spec);
  // Until its threads are joined: a stopping run's threads still hold the engine.
  while (inFlight(run.state())) {
    if (cancelled()) run.stop();
    await new Promise((done) => setTimeout(done, 20));
  }
  if (run.state() === 'error') throw new Error(run.error() ?? 'the threads run failed');
  if (run.state() !== 'done') return null;
  // The rings of a run nobody read still hold its first events (a full ring drops the newest).
  const tap = wantFirstOut ? run.tap() : null;
  const last = spec.stages.length - 1;
  const firstOut = tap
    ? readTap(tap).events.find((e) => e.kind === 'end' && e.stage === last)
    : undefined;
  return {
    summary: run.summary(),
    output: run.output(),
    firstOutUs: firstOut?.timeUs ?? null,
    source: 'threads',
  };
}

/** The same on the twin (seeded, run to the end at once). */
export function simulateRun(spec: ExperimentSpec): FinishedRun {
  const [r] = simulateRepeats(spec, 1);
  return {
    summary: {
      items: spec.items,
      completed: r.completed,
      elapsedUs: r.makespanUs,
      itemsPerSec: r.throughputPerUs * 1e6,
    },
    output: null,
    firstOutUs: Number.isFinite(r.firstOutUs) ? r.firstOutUs : null,
    source: 'simulation',
  };
}

/** A trial run starts from this many items (fewer when the spec has fewer)… */
export const TRIAL_FIRST_ITEMS = 1000;
/** …and grows until one lasts this long: long enough for a rate, short beside the point's runs. */
export const TRIAL_MS = 50;

/**
 * The rate of `spec` on this engine now, from short trial runs (null when cancelled): the first of
 * TRIAL_FIRST_ITEMS items, each next one scaled to last about 2 × TRIAL_MS by the rate the last
 * one showed (×2 to ×64), until one lasts TRIAL_MS or runs the spec's whole items. The trial runs
 * under the same load as the runs it sizes, so on a busy machine they stay near their planned
 * length instead of running many times longer than a model's rate predicts.
 */
export async function trialRate(
  engine: Pick<ThreadsEngine, 'run'>,
  spec: ExperimentSpec,
  cancelled: () => boolean,
): Promise<number | null> {
  let items = Math.min(spec.items, TRIAL_FIRST_ITEMS);
  for (;;) {
    const run = await measureRun(engine, { ...spec, items }, cancelled);
    if (!run) return null;
    const ms = run.summary.elapsedUs / 1000;
    if (ms >= TRIAL_MS || items >= spec.items) return run.summary.itemsPerSec;
    const grow = Math.min(64, Math.max(2, (2 * TRIAL_MS) / Math.max(ms, 1e-3)));
    items = Math.min(spec.items, Math.ceil(items * grow));
  }
}

/** Measures x on real threads, `repeats` runs one after another; null when cancelled. Each run
 * takes items for about THREADS_POINT_MS / repeats at `expectedPerSec` (default: the twin's;
 * 'trial': trialRate's, measured first). */
export async function measurePoint(
  engine: Pick<ThreadsEngine, 'run'>,
  spec: ExperimentSpec,
  x: number,
  cancelled: () => boolean,
  repeats = SWEEP_REPEATS,
  expectedPerSec: number | 'trial' = simulatePoint(spec, x, 1).y,
): Promise<ChartPoint | null> {
  const minItems = runtimeOf(spec).engine.minMeasuredItems;
  const rate =
    expectedPerSec === 'trial' ? await trialRate(engine, spec, cancelled) : expectedPerSec;
  if (rate === null) return null;
  const items = itemsForMs(spec, THREADS_POINT_MS / repeats, minItems, rate);
  const ys: number[] = [];
  for (let r = 0; r < repeats; r++) {
    const run = await measureRun(engine, { ...spec, items, seed: repeatSeed(spec, r) }, cancelled);
    if (!run) return null;
    ys.push(run.summary.itemsPerSec);
  }
  return spreadPoint(ys, x, 'threads');
}

/** Runs every job in order; onPoint as each finishes. Returns a cancel function. */
export function runSweep(
  jobs: SweepJob[],
  threads: () => ThreadsEngine,
  onPoint: (p: ChartPoint, job: SweepJob) => void,
  onDone: (error: string | null) => void,
): () => void {
  return runJobs(
    jobs,
    (job, cancelled) =>
      job.engine === 'threads'
        ? measurePoint(
            threads(),
            job.spec,
            job.x,
            cancelled,
            SWEEP_REPEATS,
            job.sizeByTrial ? 'trial' : undefined,
          )
        : simulatePoint(job.spec, job.x),
    onPoint,
    onDone,
  );
}

/** A point whose y is how many times longer `of` takes than `over` (the same items): their
 * throughputs' ratio, over / of. Measured when the job runs on threads, simulated otherwise. */
export interface RatioJob {
  x: number;
  of: ExperimentSpec;
  over: ExperimentSpec;
  engine: EngineKind;
}

/** `repeats` per side; the spread spans the sides' extremes (slowest of over the fastest over…). */
export async function ratioPoint(
  threads: () => ThreadsEngine,
  job: RatioJob,
  cancelled: () => boolean,
  repeats = SWEEP_REPEATS,
): Promise<ChartPoint | null> {
  const side = (spec: ExperimentSpec) =>
    job.engine === 'threads'
      ? measurePoint(threads(), spec, job.x, cancelled, repeats)
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

export function runRatioSweep(
  jobs: RatioJob[],
  threads: () => ThreadsEngine,
  onPoint: (p: ChartPoint) => void,
  onDone: (error: string | null) => void,
): () => void {
  return runJobs(jobs, (job, cancelled) => ratioPoint(threads, job, cancelled), onPoint, onDone);
}

/** Runs jobs in order, each in its own macrotask (the page keeps drawing); onPoint as each
 * finishes. Returns a cancel function. */
function runJobs<J>(
  jobs: J[],
  pointOf: (job: J, cancelled: () => boolean) => Promise<ChartPoint | null> | ChartPoint,
  onPoint: (p: ChartPoint, job: J) => void,
  onDone: (error: string | null) => void,
): () => void {
  let cancelled = false;
  (async () => {
    for (const job of jobs) {
      await new Promise((r) => setTimeout(r, 0));
      if (cancelled) return;
      const point = await pointOf(job, () => cancelled);
      if (point && !cancelled) onPoint(point, job);
    }
    onDone(null);
  })().catch((e: unknown) => onDone(e instanceof Error ? e.message : String(e)));
  return () => {
    cancelled = true;
  };
}
