// Measurement blocks: what a lesson's page measures, declared in its front matter (`measure:`,
// FORMAT.md) and drawn by one generic component placed with `::measure{id=…}`. A block is a set
// of series — measured on the visitor's threads, run on the twin, a model or a bound — over the
// values of one control (or spec field), at fixed values of others, shown as a chart or a table.
// The quantity names are the claims' (claimQuantities.ts, each kind's module in src/runtimes).
// Validation runs at build time: a block naming an unknown quantity, control, value or series
// fails the build naming the lesson, the block and the allowed names.
import { TOP_FIELDS, type TopField } from '../spec/runtimeKinds';
import {
  parseExperimentSpec,
  TWO_STAGE_VARIANTS,
  type ExperimentSpec,
} from '../spec/experimentSpec';
import { withVariant } from '../spec/twoStageVariants';
import {
  join,
  readEnum,
  readId,
  readInteger,
  readObject,
  readString,
  requireField,
  SpecError,
} from '../spec/specFields';
import { CLAIM_QUANTITIES, kindHas, patternsOf, type ClaimQuantity } from './claimQuantities';
import { controlValue } from './claims';
import { applyControls, type ControlValues, type LessonControl } from './controls';
import { atCores, CHECK_CORES, DEFAULT_CORES, usesCores } from './measureCores';
import { MEASURABLE, measurableNamed, type Measurable } from './measureQuantities';
import type { PaperRowSpec } from './paper';

/** Where a series' numbers come from: the visitor's threads (the twin where the page has none,
 * each point saying which), the seeded twin, a model overlay, a bound, the sizing equations. */
export const SERIES_SOURCES = ['measured', 'twin', 'model', 'bound', 'sizing'] as const;
export type SeriesSource = (typeof SERIES_SOURCES)[number];
/** Sources whose numbers come from runs (plan steps); the others are computed on the page. */
export const RUN_SOURCES: readonly SeriesSource[] = ['measured', 'twin'];

/** One quantity of a series: `twin.first-out`, `measured.time.serial[formatters=4]`. */
export interface Term {
  source: SeriesSource;
  /** After the source: `first-out`, `time.serial`, `case1`. */
  quantity: string;
  /** Control (or the over field's) values of its own, over the block's. */
  set: ControlValues;
  /** How it was written, brackets included. */
  text: string;
  unit: string;
}

export interface BlockSeries {
  /** Its index in the block, a stable key. */
  key: string;
  label: string;
  of: Term;
  /** A ratio's denominator (`of / over`), or null. */
  over: Term | null;
  /** The axis it is drawn on: its quantity's unit, `ratio` for a ratio. */
  unit: string;
}

/** The x a block runs over: a lesson control, or a top-level spec field. */
export type BlockOver =
  | { kind: 'control'; id: string; label: string; threads: boolean }
  | { kind: 'field'; id: TopField; label: string; threads: boolean };

export interface MeasureReport {
  /** The paper row (with `measured: true`) the measured value goes to. */
  row: string;
  /** A term, or a number over a term (a reciprocal). */
  of: Term | number;
  over: Term | null;
  text: string;
}

export interface MeasureBlock {
  id: string;
  title: string;
  show: 'chart' | 'table';
  over: BlockOver;
  values: Array<number | string>;
  /** Control values the block fixes (the page's values fill the rest). */
  at: ControlValues;
  series: BlockSeries[];
  /** Log axes (a chart): x, and y on the charts of these units. */
  logX: boolean;
  logY: string[];
  /** Items of every run the block makes (null: the spec's). */
  items: number | null;
  /** Measured points: sized from trial runs on the visitor's threads, at most this many items
   * (a micro-benchmark's twin would take longer than the run itself); null: sized by the twin. */
  measuredItems: number | null;
  /** Runs per point (a point series, a ratio's each side; null: SWEEP_REPEATS). */
  repeats: number | null;
  /** Over a thread count: measured up to max(this, the visitor's cores); null: the cores. */
  measureUpTo: number | null;
  report: MeasureReport[];
  /** Written in the visitor's cores (`C+1`, measureCores.ts): the block as written, which the
   * page resolves at the visitor's cores (this block is it at DEFAULT_CORES), and what each
   * value was written as. */
  perCores?: { source: unknown; written: string[] | null };
}

/** The lesson's paper rows as a report reads them (the front matter's, or the loaded lesson's). */
type PaperRows = Array<Pick<PaperRowSpec, 'id' | 'measured'>>;

const BLOCK_ID = /^[a-z][a-z0-9-]{0,47}$/;
const TERM = new RegExp(String.raw`^([a-z]+)\.([a-z0-9-]+(?:\.[a-z0-9-]+)*)(?:\[([^\]]*)\])?$`);
const NOT_OVER: readonly TopField[] = ['runtime', 'stages', 'streams', 'seed'];
const OVER_FIELDS = TOP_FIELDS.filter((f) => !NOT_OVER.includes(f));
const MAX_BLOCKS = 12;
const MAX_VALUES = 16;
const MAX_SERIES = 12;

/** The spec with a top-level field set: `variant` as the two-stage comparison runs it (serial and
 * dual-thread on one parallel thread), any other field as written. */
export function withField(spec: ExperimentSpec, field: TopField, value: unknown): ExperimentSpec {
  if (field === 'variant' && (TWO_STAGE_VARIANTS as readonly unknown[]).includes(value))
    return withVariant(spec, value as (typeof TWO_STAGE_VARIANTS)[number]);
  return parseExperimentSpec({ ...spec, [field]: value });
}

/** The spec a term of `block` runs at x (the page's `values`, the block's `at`, the term's own). */
export function blockSpec(
  experimentSource: unknown,
  controls: LessonControl[],
  block: Pick<MeasureBlock, 'over' | 'at'>,
  values: ControlValues,
  x: number | string,
  set: ControlValues = {},
): ExperimentSpec {
  const over = block.over;
  const own = { ...set };
  let fieldValue: number | string = x;
  if (over.kind === 'field' && own[over.id] !== undefined) {
    fieldValue = own[over.id];
    delete own[over.id];
  }
  const controlValues =
    over.kind === 'control'
      ? { ...values, ...block.at, [over.id]: x, ...own }
      : { ...values, ...block.at, ...own };
  const spec = applyControls(experimentSource, controls, controlValues);
  return over.kind === 'field' ? withField(spec, over.id, fieldValue) : spec;
}

/** The measurable behind a run term (`measured.first-out`: first-out), or undefined. */
export const measurableOf = (term: Pick<Term, 'source' | 'quantity'>): Measurable | undefined =>
  RUN_SOURCES.includes(term.source) ? measurableNamed(term.quantity) : undefined;

/** The claim quantity a term names (`twin.x` / `model.x` / `bound.x` / `sizing.x`; for a measured
 * term its twin counterpart), or undefined. */
export function claimQuantityOf(
  term: Pick<Term, 'source' | 'quantity'>,
): ClaimQuantity | undefined {
  const name = `${term.source === 'measured' ? 'twin' : term.source}.${term.quantity}`;
  return CLAIM_QUANTITIES.find((q) => q.matches(name));
}

const allowedSeries = () =>
  [
    ...MEASURABLE.map((m) => `measured.${m.pattern}`),
    ...MEASURABLE.filter((m) => !m.measuredOnly).map((m) => `twin.${m.pattern}`),
    'model.<overlay>',
    'bound.<…>',
    'sizing.<…>',
  ].join(', ');

interface Ctx {
  path: string;
  controls: LessonControl[];
  over: BlockOver;
  values: Array<number | string>;
  /** The spec at each value (the block's `at` over the defaults), for the kind's quantities. */
  specAt(x: number | string, set: ControlValues): ExperimentSpec;
}

function parseTerm(text: string, ctx: Ctx, path: string): Term {
  const m = TERM.exec(text.trim());
  if (!m)
    throw new SpecError(
      path,
      `"${text.trim()}" is not a series such as twin.throughput or measured.time[batch=64] (allowed: ${allowedSeries()})`,
    );
  const source = m[1] as SeriesSource;
  if (!SERIES_SOURCES.includes(source))
    throw new SpecError(
      path,
      `${m[1]}.${m[2]}: unknown source ${m[1]} (allowed: ${SERIES_SOURCES.join(', ')})`,
    );
  const quantity = m[2];
  const set: ControlValues = {};
  for (const assignment of (m[3] ?? '').split(',').filter((a) => a.trim())) {
    const [id, value] = assignment.split('=').map((x) => x.trim());
    if (ctx.over.kind === 'field' && id === ctx.over.id) {
      const v = ctx.values.find((x) => String(x) === value);
      if (v === undefined)
        throw new SpecError(
          path,
          `${id}=${value} is not one of the block's values (${ctx.values.join(', ')})`,
        );
      set[id] = v;
    } else {
      const known = ctx.controls.map((c) => c.id);
      if (!known.includes(id))
        throw new SpecError(
          path,
          `${id} is not a control of this lesson${ctx.over.kind === 'field' ? ` or the block's field ${ctx.over.id}` : ''} (known: ${[...known, ...(ctx.over.kind === 'field' ? [ctx.over.id] : [])].join(', ')})`,
        );
      set[id] = controlValue(ctx.controls, id, value, path);
    }
  }
  const written = `${source}.${quantity}`;
  const measurable = measurableOf({ source, quantity });
  const claim = claimQuantityOf({ source, quantity });
  if (RUN_SOURCES.includes(source)) {
    if (!measurable || (source === 'twin' && measurable.measuredOnly))
      throw new SpecError(
        path,
        `${written} is not a series a run shows (allowed: ${allowedSeries()})`,
      );
  } else if (!claim) {
    // The kind's own model, bound and sizing quantities (at the block's first value).
    const known = patternsOf(ctx.specAt(ctx.values[0], {})).filter((p) => !p.startsWith('twin.'));
    throw new SpecError(path, `unknown quantity ${written} (known: ${known.join(', ')})`);
  }
  // The quantity must be one of the kind's at every value the block runs.
  if (!measurable?.measuredOnly)
    for (const x of ctx.values) {
      let spec: ExperimentSpec;
      try {
        spec = ctx.specAt(x, set);
      } catch (e) {
        throw new SpecError(path, `${text.trim()} at ${ctx.over.id}=${x}: ${(e as Error).message}`);
      }
      const refused = measurable?.refuses?.(spec);
      if (refused) throw new SpecError(path, `${written} at ${ctx.over.id}=${x}: ${refused}`);
      const q = claim!;
      const name = `${source === 'measured' ? 'twin' : source}.${quantity}`;
      if (!kindHas(spec, q.name, name))
        throw new SpecError(
          path,
          `${written} is not a quantity of the ${spec.runtime} runtime (its quantities: ${patternsOf(spec).join(', ')})`,
        );
    }
  const unit = measurable?.unit ?? claim!.unit;
  return { source, quantity, set, text: text.trim(), unit };
}

/** `a` or `a / b`. */
function parseRatio(text: string, ctx: Ctx, path: string): { of: Term; over: Term | null } {
  const parts = text.split(' / ');
  if (parts.length > 2) throw new SpecError(path, `"${text}" divides more than once (write a / b)`);
  const of = parseTerm(parts[0], ctx, path);
  const over = parts[1] === undefined ? null : parseTerm(parts[1], ctx, path);
  if (over && (of.source === 'measured') !== (over.source === 'measured'))
    throw new SpecError(path, `"${text}": a ratio's two sides must both be measured or both not`);
  return { of, over };
}

function readOver(raw: unknown, path: string, controls: LessonControl[]): BlockOver {
  const id = readString(raw, path, 1, 24);
  const control = controls.find((c) => c.id === id);
  if (control) {
    const threads =
      control.kind === 'range' &&
      control.targets.some((t) => t === 'threads' || t.endsWith('.threads'));
    return { kind: 'control', id, label: control.label, threads };
  }
  if ((OVER_FIELDS as readonly string[]).includes(id))
    return { kind: 'field', id: id as TopField, label: id, threads: id === 'threads' };
  throw new SpecError(
    path,
    `${id} is not a control of this lesson or a spec field (controls: ${controls.map((c) => c.id).join(', ') || 'none'}; fields: ${OVER_FIELDS.join(', ')})`,
  );
}

function readValues(raw: unknown, path: string, over: BlockOver, controls: LessonControl[]) {
  const control = over.kind === 'control' ? controls.find((c) => c.id === over.id)! : null;
  if (raw === undefined && control?.kind === 'choice') return control.choices.map((c) => c.value);
  if (!Array.isArray(raw) || raw.length < 1 || raw.length > MAX_VALUES)
    throw new SpecError(path, `must be a list of 1..${MAX_VALUES} values of ${over.id}`);
  const seen = new Set<string>();
  return raw.map((v, i) => {
    const value = control
      ? controlValue(controls, over.id, v, join(path, i))
      : (v as number | string);
    if (!control && typeof v !== 'number' && typeof v !== 'string')
      throw new SpecError(join(path, i), `must be a number or a word`);
    if (seen.has(String(value))) throw new SpecError(join(path, i), `${value} is listed twice`);
    seen.add(String(value));
    return value;
  });
}

function readSeries(raw: unknown, i: number, ctx: Ctx): BlockSeries {
  const path = `${ctx.path}.series[${i}]`;
  const o = typeof raw === 'string' ? { of: raw } : readObject(raw, path, ['of', 'label']);
  const text = readString(requireField(o, 'of', path), join(path, 'of'), 1, 200);
  const { of, over } = parseRatio(text, ctx, path);
  const label = o.label === undefined ? text : readString(o.label, join(path, 'label'), 1, 80);
  return { key: `s${i}`, label, of, over, unit: over ? 'ratio' : of.unit };
}

function readReport(
  raw: unknown,
  path: string,
  ctx: Ctx,
  series: BlockSeries[],
  paper: PaperRows,
): MeasureReport[] {
  if (raw === undefined) return [];
  const rows = paper.filter((r) => r.measured).map((r) => r.id);
  const o = readObject(raw, path, Object.keys(raw ?? {}));
  for (const row of Object.keys(o))
    if (!rows.includes(row))
      throw new SpecError(
        join(path, row),
        `is not a paper row of this lesson with measured: true (rows: ${rows.join(', ') || 'none'})`,
      );
  return Object.entries(o).map(([row, expr]) => {
    const p = join(path, row);
    const text = readString(expr, p, 1, 200);
    // A number over a term: the reciprocal of a rate (`1000000 / measured.throughput[…]`: µs).
    const [head, ...rest] = text.split(' / ');
    const constant = rest.length === 1 && /^\d+(?:\.\d+)?$/.test(head.trim());
    const { of, over } = constant
      ? { of: Number(head), over: parseTerm(rest[0], ctx, p) }
      : parseRatio(text, ctx, p);
    for (const t of [of, over]) {
      if (!t || typeof t === 'number') continue;
      if (t.source !== 'measured')
        throw new SpecError(p, `${t.text}: a report reads measured series only`);
      const x = pointX(t, ctx.over);
      if (x === undefined || !ctx.values.some((v) => String(v) === String(x)))
        throw new SpecError(
          p,
          `${t.text} must name one of the block's values of ${ctx.over.id} (${ctx.values.join(', ')})`,
        );
      if (
        !series.some(
          (s) => sameLine(s.of, t, ctx.over) || (s.over && sameLine(s.over, t, ctx.over)),
        )
      )
        throw new SpecError(
          p,
          `${t.text} is not a series of this block (its series: ${series.map((s) => s.label).join(', ')})`,
        );
    }
    return { row, of, over, text };
  });
}

/** The over value a term sets in its brackets. */
export const pointX = (t: Pick<Term, 'set'>, over: BlockOver) => t.set[over.id];

/** The settings of a term other than the over value: which line of the block it is on. */
export function lineSettings(t: Pick<Term, 'set'>, over: BlockOver): ControlValues {
  const rest = { ...t.set };
  delete rest[over.id];
  return rest;
}

/** Whether two terms are the same quantity on the same line (their over values aside). */
export function sameLine(a: Term, b: Term, over: BlockOver): boolean {
  const key = (t: Term) =>
    JSON.stringify([t.source, t.quantity, Object.entries(lineSettings(t, over)).sort()]);
  return key(a) === key(b);
}

/** Validates the front matter's `measure` list; throws SpecError naming the block and the
 * allowed names. */
export function readMeasureBlocks(
  raw: unknown,
  experimentSource: unknown,
  controls: LessonControl[],
  paper: PaperRows,
): MeasureBlock[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw) || raw.length > MAX_BLOCKS)
    throw new SpecError('measure', `must be a list of at most ${MAX_BLOCKS} blocks`);
  const ids = new Set<string>();
  const reported = new Map<string, string>();
  const readOne = (value: unknown, i: number, seen = ids, rows = reported): MeasureBlock => {
    const first = join('measure', i);
    const o = readObject(value, first, [
      'id',
      'title',
      'show',
      'over',
      'values',
      'at',
      'series',
      'log',
      'items',
      'measuredItems',
      'repeats',
      'measureUpTo',
      'report',
    ]);
    const id = readId(o, first, BLOCK_ID, 48, seen);
    // Every message names the block by its id as well as its place.
    const path = `${first} (${id})`;
    const title = readString(requireField(o, 'title', path), join(path, 'title'), 1, 120);
    const show = readEnum(requireField(o, 'show', path), join(path, 'show'), [
      'chart',
      'table',
    ] as const);
    const over = readOver(requireField(o, 'over', path), join(path, 'over'), controls);
    const values = readValues(o.values, join(path, 'values'), over, controls);
    if (show === 'chart' && values.some((v) => typeof v !== 'number'))
      throw new SpecError(
        join(path, 'show'),
        `a chart needs numbers along ${over.id} (values: ${values.join(', ')}); show a table of them instead`,
      );
    const at: ControlValues = {};
    if (o.at !== undefined)
      for (const [key, v] of Object.entries(
        readObject(
          o.at,
          join(path, 'at'),
          controls.map((c) => c.id).filter((c) => c !== over.id),
        ),
      ))
        at[key] = controlValue(controls, key, v, join(join(path, 'at'), key));
    const block = { over, at };
    const ctx: Ctx = {
      path,
      controls,
      over,
      values,
      specAt: (x, set) => blockSpec(experimentSource, controls, block, {}, x, set),
    };
    const seriesRaw = requireField(o, 'series', path);
    if (!Array.isArray(seriesRaw) || seriesRaw.length < 1 || seriesRaw.length > MAX_SERIES)
      throw new SpecError(
        join(path, 'series'),
        `must be a list of 1..${MAX_SERIES} series (allowed: ${allowedSeries()})`,
      );
    const series = seriesRaw.map((s, k) => readSeries(s, k, ctx));
    if (!series.some((s) => RUN_SOURCES.includes(s.of.source)))
      throw new SpecError(
        join(path, 'series'),
        'measures nothing: give it a measured or twin series (a model alone is the model chart’s)',
      );
    if (show === 'chart' && series.some((s) => s.unit === 'checksum'))
      throw new SpecError(join(path, 'series'), 'a checksum is shown in a table, not a chart');
    // Log axes: x, y (every chart's), or `y <unit>` (the chart of that unit only).
    const units = [...new Set(series.map((s) => s.unit))];
    const logRaw = o.log ?? [];
    const logWords = ['x', 'y', ...units.map((u) => `y ${u}`)];
    if (!Array.isArray(logRaw))
      throw new SpecError(join(path, 'log'), `must be a list of ${logWords.join(', ')}`);
    const log = logRaw.map((a, k) => readEnum(a, join(join(path, 'log'), k), logWords));
    const items =
      o.items === undefined ? null : readInteger(o.items, join(path, 'items'), 1, 100_000_000);
    const repeats =
      o.repeats === undefined ? null : readInteger(o.repeats, join(path, 'repeats'), 1, 9);
    const measuredItems =
      o.measuredItems === undefined
        ? null
        : readInteger(o.measuredItems, join(path, 'measuredItems'), 1, 1_000_000_000);
    const measureUpTo =
      o.measureUpTo === undefined
        ? null
        : readInteger(o.measureUpTo, join(path, 'measureUpTo'), 1, 64);
    if (measureUpTo !== null && !over.threads)
      throw new SpecError(
        join(path, 'measureUpTo'),
        `applies to a block over a thread count, not ${over.id}`,
      );
    // Every run the block makes must be a valid spec at its items.
    for (const x of values)
      for (const s of series)
        for (const t of [s.of, s.over])
          if (t && measurableOf(t)) {
            try {
              const spec = measurableOf(t)!.specFor(ctx.specAt(x, t.set), t.quantity);
              if (items !== null) parseExperimentSpec({ ...spec, items });
            } catch (e) {
              throw new SpecError(
                `${path}.series[${series.indexOf(s)}]`,
                `${t.text} at ${over.id}=${x}: ${(e as Error).message}`,
              );
            }
          }
    const report = readReport(o.report, join(path, 'report'), ctx, series, paper);
    for (const r of report) {
      const other = rows.get(r.row);
      if (other)
        throw new SpecError(join(path, 'report'), `${r.row} is reported by block ${other} too`);
      rows.set(r.row, id);
    }
    return {
      id,
      title,
      show,
      over,
      values,
      at,
      series,
      logX: log.includes('x'),
      logY: log.includes('y') ? units : units.filter((u) => log.includes(`y ${u}`)),
      items,
      measuredItems,
      repeats,
      measureUpTo,
      report,
    };
  };
  return raw.map((value, i) => {
    if (!usesCores(value)) return readOne(value, i);
    // Written in the visitor's cores: valid at every core count checked, kept at DEFAULT_CORES.
    for (const cores of CHECK_CORES)
      try {
        readOne(atCores(value, cores, controls).raw, i, new Set(ids), new Map(reported));
      } catch (e) {
        if (!(e instanceof SpecError)) throw e;
        throw new SpecError('', `${e.message} (with C = ${cores} cores)`);
      }
    const { raw: at, written } = atCores(value, DEFAULT_CORES, controls);
    return { ...readOne(at, i), perCores: { source: value, written } };
  });
}

/** A block at the visitor's cores (itself unless written in them). */
export function blockAtCores(
  block: MeasureBlock,
  cores: number,
  lesson: { experimentSource: unknown; controls: LessonControl[]; paper: PaperRows },
): MeasureBlock {
  if (!block.perCores) return block;
  const { raw, written } = atCores(block.perCores.source, cores, lesson.controls);
  const [at] = readMeasureBlocks([raw], lesson.experimentSource, lesson.controls, lesson.paper);
  return { ...at, perCores: { source: block.perCores.source, written } };
}
