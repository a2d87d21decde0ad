// A measurement block as a plan, and its results as values: which runs a block submits to the
// page's run planner for its `over` values, `at` and series (one step per distinct spec and
// engine: a measured series on the visitor's threads where the page may use them, the twin where
// it may not, each twin series on the twin beside), and the number each finished step gives each
// series. Model and bound series run nothing: they are computed at each value (modelValues).
// Pure, so the planning is unit-tested without a page.
import type { ChartPoint } from '../../engine/sweep';
import type { FinishedRun } from '../../engine/planner/measure';
import { dataKindOf, type EngineKind } from '../../engine/pipeline/pipelineRun';
import type { PointStep, RatioStep, RunStep } from '../../engine/planner/steps';
import { bracket } from '../../lessons/claims';
import { CLAIM_QUANTITIES } from '../../lessons/claimQuantities';
import type { ControlValues, LessonControl } from '../../lessons/controls';
import {
  blockSpec,
  claimQuantityOf,
  lineSettings,
  measurableOf,
  RUN_SOURCES,
  type MeasureBlock,
  type Term,
} from '../../lessons/measureBlocks';
import type { Measurable } from '../../lessons/measureQuantities';
import type { ExperimentSpec } from '../../spec/experimentSpec';

export interface BlockLesson {
  experimentSource: unknown;
  controls: LessonControl[];
}

/** A run term a step's result fills: which series, which side of it, at which value. */
export interface Fill {
  series: string;
  side: 'of' | 'over';
  /** The index of the value in the block's `values`. */
  at: number;
  /** 'measured' for a measured series (whatever engine served it), 'twin' for a twin series. */
  as: 'measured' | 'twin';
  measurable: Measurable;
}

/** A ratio step's `spec` is its numerator's (what the step measures, as the others'). */
export type BlockStep = (PointStep | (RatioStep & { spec: ExperimentSpec }) | RunStep) & {
  fills: Fill[];
};

/** One number of a series' side at a value, and where it came from. */
export interface BlockValue {
  series: string;
  side: 'of' | 'over';
  at: number;
  as: 'measured' | 'twin';
  y: number | null;
  min?: number;
  max?: number;
  source: EngineKind;
  /** A run's output, for a checksum. */
  checksum?: { checksum: string; bytes: number } | null;
}

export interface PlanContext {
  /** The page's control values (the block's `at` and each value of `over` go on top). */
  values: ControlValues;
  /** The engine the page would run this spec on. */
  engineOf(spec: ExperimentSpec): EngineKind;
  /** The visitor's cores: a block over a thread count measures up to max(measureUpTo, cores). */
  cores: number;
}

/** The spec a run term runs at the block's value `x`. */
export function termSpec(
  lesson: BlockLesson,
  block: MeasureBlock,
  values: ControlValues,
  x: number | string,
  term: Term,
): ExperimentSpec {
  const spec = measurableOf(term)!.specFor(
    blockSpec(lesson.experimentSource, lesson.controls, block, values, x, term.set),
    term.quantity,
  );
  return block.items === null ? spec : { ...spec, items: block.items };
}

/** Whether x is measured at all: a block over a thread count measures up to the cores (the models
 * assume a core per thread) or its measureUpTo, and simulates beyond. */
function mayMeasure(block: MeasureBlock, x: number | string, cores: number): boolean {
  if (!block.over.threads || typeof x !== 'number') return true;
  return x <= Math.max(block.measureUpTo ?? 0, cores);
}

const runTerms = (block: MeasureBlock) =>
  block.series.flatMap((s) =>
    (['of', 'over'] as const).flatMap((side) => {
      const term = side === 'of' ? s.of : s.over;
      return term && RUN_SOURCES.includes(term.source) ? [{ series: s.key, side, term }] : [];
    }),
  );

/** The runs the block makes, in order: at each value, each distinct spec measured (on the page's
 * engine), then on the twin; a step run twice (a ratio's denominator at every value) is run once
 * and fills every series that reads it. */
export function planBlock(lesson: BlockLesson, block: MeasureBlock, ctx: PlanContext): BlockStep[] {
  const steps: BlockStep[] = [];
  const byKey = new Map<string, BlockStep>();
  const terms = runTerms(block);
  block.values.forEach((value, at) => {
    const groups = new Map<
      string,
      { spec: ExperimentSpec; what: string; measured: Fill[]; twin: Fill[] }
    >();
    for (const { series, side, term } of terms) {
      const spec = termSpec(lesson, block, ctx.values, value, term);
      // A ratio quantity (tp-over-tr) is its own step: the spec's time over another spec's.
      const key = JSON.stringify(spec) + (measurableOf(term)!.ratioOver ? ' ratio' : '');
      // What the run is, for the progress report: `batch = 64 [graph=ring]`, `formatters = 4,
      // input-time.serial` (a quantity that runs another spec says which).
      const own = bracket(lineSettings(term, block.over));
      const x = term.set[block.over.id] ?? value;
      const other = term.quantity.includes('.') ? `, ${term.quantity}` : '';
      const what = `${block.over.id} = ${x}${own ? ` ${own}` : ''}${other}`;
      const group = groups.get(key) ?? { spec, what, measured: [], twin: [] };
      groups.set(key, group);
      const as = term.source === 'measured' ? 'measured' : 'twin';
      group[as].push({ series, side, at, as, measurable: measurableOf(term)! });
    }
    for (const [key, group] of groups) {
      const x = typeof value === 'number' ? value : at;
      const what = group.what;
      const add = (engine: EngineKind, fills: Fill[]) => {
        const stepKey = `${engine}:${key}`;
        const known = byKey.get(stepKey);
        if (known) {
          known.fills.push(...fills);
          return;
        }
        const fromPoint = fills.every((f) => f.measurable.fromPoint);
        const ratioOver = fills[0].measurable.ratioOver;
        const trial = engine === 'threads' && fromPoint && block.measuredItems !== null;
        const spec = trial ? { ...group.spec, items: block.measuredItems! } : group.spec;
        const label = `${what}, ${dataKindOf(engine)}`;
        const step: BlockStep = ratioOver
          ? {
              kind: 'ratio',
              label,
              x,
              spec: group.spec,
              of: group.spec,
              over: ratioOver(group.spec),
              engine,
              repeats: block.repeats ?? undefined,
              fills,
            }
          : fromPoint
            ? {
                kind: 'point',
                label,
                x,
                spec,
                engine,
                sizeByTrial: trial || undefined,
                repeats: block.repeats ?? undefined,
                fills,
              }
            : { kind: 'run', label, spec, engine, fills };
        byKey.set(stepKey, step);
        steps.push(step);
      };
      let measuredOn: EngineKind | null = null;
      if (group.measured.length > 0) {
        // A ratio is measured only where both of its specs may run on the page's engine.
        const ratioOver = group.measured[0].measurable.ratioOver;
        const specs = [group.spec, ...(ratioOver ? [ratioOver(group.spec)] : [])];
        const engines = new Set(specs.map((s) => ctx.engineOf(s)));
        measuredOn =
          mayMeasure(block, value, ctx.cores) && engines.size === 1
            ? ctx.engineOf(group.spec)
            : 'simulation';
        // Where the page cannot measure, the twin's run serves the measured series too.
        add(
          measuredOn,
          measuredOn === 'simulation' ? [...group.measured, ...group.twin] : group.measured,
        );
      }
      if (group.twin.length > 0 && measuredOn !== 'simulation') add('simulation', group.twin);
    }
  });
  return steps;
}

/** What a finished step gives each series it fills. */
export function valuesOf(step: BlockStep, result: ChartPoint | FinishedRun): BlockValue[] {
  return step.fills.map((f) => {
    const base = { series: f.series, side: f.side, at: f.at, as: f.as, source: step.engine };
    if ('summary' in result) return { ...base, ...fromRun(f.measurable, result) };
    return { ...base, ...fromPoint(f.measurable, result) };
  });
}

function fromPoint(m: Measurable, p: ChartPoint): Partial<BlockValue> & { y: number | null } {
  if (m.metric === 'us-per-item')
    return {
      y: 1e6 / p.y,
      min: p.max === undefined ? undefined : 1e6 / p.max,
      max: p.min === undefined ? undefined : 1e6 / p.min,
    };
  return { y: p.y, min: p.min, max: p.max };
}

function fromRun(m: Measurable, r: FinishedRun): Partial<BlockValue> & { y: number | null } {
  const s = r.summary;
  switch (m.metric) {
    case 'throughput':
      return { y: s.itemsPerSec };
    case 'time':
      return { y: s.elapsedUs / 1e6 };
    case 'first-out':
      return { y: r.firstOutUs === null ? null : r.firstOutUs / 1000 };
    case 'us-per-item':
      return { y: s.completed > 0 ? s.elapsedUs / s.completed : null };
    case 'in-flight':
      return { y: r.inSystem?.meanInFlight ?? null };
    case 'time-in-system':
      return { y: r.inSystem ? r.inSystem.meanTimeInSystemUs / 1000 : null };
    case 'lambda-times-w':
      return { y: r.inSystem ? r.inSystem.throughputPerUs * r.inSystem.meanTimeInSystemUs : null };
    case 'ratio':
      return { y: null }; // a ratio comes from a ratio step's point, never from one run
    case 'checksum': {
      const out = r.output && 'checksum' in r.output ? r.output : null;
      return { y: null, checksum: out && { checksum: out.checksum, bytes: out.bytes } };
    }
  }
}

/** A model, bound or sizing series' value at each of the block's values (null where it does not
 * apply), at the page's control values. */
export function modelValues(
  lesson: BlockLesson,
  block: MeasureBlock,
  values: ControlValues,
  term: Term,
): Array<number | null> {
  const q = claimQuantityOf(term) ?? CLAIM_QUANTITIES[0];
  const name = `${term.source}.${term.quantity}`;
  return block.values.map((x) => {
    try {
      return q.evaluate(
        blockSpec(lesson.experimentSource, lesson.controls, block, values, x, term.set),
        name,
      );
    } catch {
      return null;
    }
  });
}
