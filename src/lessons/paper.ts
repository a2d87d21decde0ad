// What the source papers measured, set beside ours: a lesson's `paper` rows (FORMAT.md). Each row
// names a figure of a seed paper and its number; ours comes from the seeded twin at the paper's
// scale (evaluated when the lesson loads, like a checked claim) and, where the lesson's views
// measure it on the visitor's threads, from the run (reported live under the row's id). The
// `::paper` component draws the rows; `#/papers` gathers every lesson's.
import type { ExperimentSpec } from '../spec/experimentSpec';
import {
  join,
  readEnum,
  readId,
  readNumber,
  readObject,
  readString,
  requireField,
  SpecError,
} from '../spec/specFields';
import { controlValue, parseSide, sideValue, type Side } from './claims';
import type { ControlValues, LessonControl } from './controls';
import { checkVerdict, readVerdict, VERDICT_FIELDS, type PaperVerdict } from './paperVerdict';
import { benchRatio, BENCH_TARGETS, type BenchTarget } from './queueBench';

/** The five source documents (../shared/seeds), by their number. */
export const PAPERS = {
  '000': {
    short: 'Navarro et al.',
    title: 'Analytical Modeling of Pipeline Parallelism',
  },
  '001': {
    short: "Preud'homme et al.",
    title: 'An improvement of OpenMP pipeline parallelism with the BatchQueue algorithm',
  },
  '002': {
    short: 'Dempsey',
    title: 'Two-Stage Input / Output Parallel Pipeline (QuickThread), Parts 1 and 2',
  },
  '003': {
    short: 'Shirako et al.',
    title: 'Phaser Beams: Integrating Stream Parallelism with Task Parallelism',
  },
  '004': {
    short: 'Park et al.',
    title: 'The Performance Impact of Thread Packing on Synchronization-Intensive Applications',
  },
} as const;
export type PaperId = keyof typeof PAPERS;
const PAPER_IDS = Object.keys(PAPERS) as PaperId[];

/** What a row's numbers are: the page formats them by it (ratio → 2.3×, % → 33.7%). */
export const PAPER_UNITS = ['ratio', 's', 'ms', 'µs', 'items/s', 'M ops/s', '%', 'count'] as const;
export type PaperUnit = (typeof PAPER_UNITS)[number];
export const PAPER_BOUNDS = ['above', 'below'] as const;
export type PaperBound = (typeof PAPER_BOUNDS)[number];

export interface PaperRowSpec {
  id: string;
  source: PaperId;
  where: string;
  claim: string;
  unit: PaperUnit;
  paper: number;
  /** Set when the paper states only a direction: its figure is a bound, ours lies above (or
   * below) it — e.g. "fine grain suffers more than coarse" is a ratio above 1. */
  bound: PaperBound | null;
  /** Ours from the twin: a quantity, or the ratio of two (`twin.time[a=1] / twin.time[a=2]`). */
  twin: { over: Side; under: Side | null; text: string } | null;
  at: ControlValues;
  measured: boolean;
  /** Ours from the committed queue benchmark: `<target> <row key> / <row key>`
   * (`native comm-2/batch / comm-2/vyukov-mpmc`, queueBench.ts). */
  bench: { target: BenchTarget; of: string; over: string; text: string } | null;
  /** How ours relates to the paper's figure, and whose settings ours ran at (paperVerdict.ts). */
  verdict: PaperVerdict;
}

export interface PaperRow {
  id: string;
  source: PaperId;
  where: string;
  claim: string;
  unit: PaperUnit;
  paperValue: number;
  /** The paper's figure is a bound in this direction (null: a value it measured). */
  paperBound: PaperBound | null;
  /** The twin's value at the row's control values (the paper's scale), or null. */
  twinValue: number | null;
  /** How it was computed, with the numbers (shown as the value's title). */
  twinEvidence: string | null;
  /** Where that value comes from: the seeded twin ('simulated'), or the models alone ('model':
   * no side of it runs the twin, e.g. sizing's N_optimal). */
  twinKind: 'simulated' | 'model';
  /** Whether the lesson's views report a value measured on the visitor's threads. */
  measured: boolean;
  /** The committed benchmark's value (measured on the machine that ran it), or null. */
  benchValue: number | null;
  benchTarget: BenchTarget | null;
  /** How it was computed, with the run's date (shown as the value's title). */
  benchEvidence: string | null;
  /** agrees | differs | fitted | bound, with its tolerance, reason or fitted parameter, and the
   * scale ours ran at (paper: the paper's settings; lesson: ours). */
  verdict: PaperVerdict;
  /** The build's check of the verdict against the row's own numbers (null: nothing to check). */
  verdictEvidence: string | null;
}

const ROW_ID = /^[a-z][a-z0-9-]{0,47}$/;
const RATIO = / \/ /;
const BENCH = /^(\S+) (\S+) \/ (\S+)$/;

/** Validates the front matter's `paper` list (the twin values are computed by evaluatePaperRows). */
export function readPaperRows(raw: unknown, controls: LessonControl[]): PaperRowSpec[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw) || raw.length > 32)
    throw new SpecError('paper', 'must be a list of at most 32 rows');
  const ids = new Set<string>();
  return raw.map((value, i) => {
    const path = join('paper', i);
    const o = readObject(value, path, [
      'id',
      'source',
      'where',
      'claim',
      'unit',
      'paper',
      'twin',
      'at',
      'measured',
      'bench',
      'bound',
      ...VERDICT_FIELDS,
    ]);
    const id = readId(o, path, ROW_ID, 48, ids);
    const at: ControlValues = {};
    if (o.at !== undefined)
      for (const [key, v] of Object.entries(
        readObject(
          o.at,
          join(path, 'at'),
          controls.map((c) => c.id),
        ),
      ))
        at[key] = controlValue(controls, key, v, join(join(path, 'at'), key));
    let twin: PaperRowSpec['twin'] = null;
    if (o.twin !== undefined) {
      const text = readString(o.twin, join(path, 'twin'), 1, 200);
      const [over, under] = text.split(RATIO);
      twin = {
        over: parseSide(over, join(path, 'twin'), controls),
        under: under === undefined ? null : parseSide(under, join(path, 'twin'), controls),
        text,
      };
    }
    if (o.measured !== undefined && typeof o.measured !== 'boolean')
      throw new SpecError(join(path, 'measured'), `${String(o.measured)} is not true or false`);
    const measured = o.measured === true;
    // YAML reads an unquoted 000 as the number 0: take it as the paper it names.
    const source = requireField(o, 'source', path);
    let bench: PaperRowSpec['bench'] = null;
    if (o.bench !== undefined) {
      const text = readString(o.bench, join(path, 'bench'), 1, 200);
      const m = BENCH.exec(text);
      if (!m)
        throw new SpecError(
          join(path, 'bench'),
          `"${text}" must read <target> <row key> / <row key> (e.g. native comm-2/batch / comm-2/vyukov-mpmc)`,
        );
      bench = {
        target: readEnum(m[1], join(path, 'bench'), BENCH_TARGETS),
        of: m[2],
        over: m[3],
        text,
      };
    }
    if (!twin && !measured && !bench)
      throw new SpecError(
        path,
        'needs ours: a twin value, or measured: true, or a bench ratio (or several)',
      );
    const bound =
      o.bound === undefined ? null : readEnum(o.bound, join(path, 'bound'), PAPER_BOUNDS);
    return {
      id,
      source: readEnum(
        typeof source === 'number' ? String(source).padStart(3, '0') : source,
        join(path, 'source'),
        PAPER_IDS,
      ),
      where: readString(requireField(o, 'where', path), join(path, 'where'), 1, 60),
      claim: readString(requireField(o, 'claim', path), join(path, 'claim'), 1, 300),
      unit: readEnum(requireField(o, 'unit', path), join(path, 'unit'), PAPER_UNITS),
      paper: readNumber(requireField(o, 'paper', path), join(path, 'paper'), 0, 1e12),
      bound,
      twin,
      at,
      measured,
      bench,
      verdict: readVerdict(o, path, bound !== null),
    };
  });
}

/** Computes each row's twin value at its control values, and checks its verdict against it
 * (throws naming the row when a row labelled agrees or bound no longer is). */
export function evaluatePaperRows(
  rows: PaperRowSpec[],
  specAt: (values: ControlValues) => ExperimentSpec,
): PaperRow[] {
  return rows.map((r, i) => {
    let twinValue: number | null = null;
    let twinEvidence: string | null = null;
    if (r.twin) {
      const [a, aText] = sideValue(r.twin.over, specAt, r.at);
      if (r.twin.under) {
        const [b, bText] = sideValue(r.twin.under, specAt, r.at);
        twinValue = a / b;
        twinEvidence = `${aText} / ${bText}`;
      } else {
        twinValue = a;
        twinEvidence = aText;
      }
    }
    const bench = r.bench && benchRatio(r.bench.target, r.bench.of, r.bench.over);
    const sides = r.twin ? [r.twin.over, r.twin.under] : [];
    const simulated = sides.some((s) => s?.kind === 'quantity' && s.name.startsWith('twin.'));
    // The verdict is checked against the value the build computed: the twin's (or the model's),
    // else the committed benchmark's; the visitor's measurement comes later and is shown as such.
    const ours =
      twinValue !== null
        ? {
            value: twinValue,
            // A ratio's evidence shows both sides; its value is their quotient.
            text: r.twin?.under ? `${twinEvidence} = ${twinValue.toPrecision(4)}` : twinEvidence!,
          }
        : bench
          ? { value: bench.ratio, text: `the benchmark's ${bench.evidence}` }
          : null;
    const verdictEvidence = checkVerdict(r.verdict, r.id, join('paper', i), r.paper, r.bound, ours);
    return {
      id: r.id,
      source: r.source,
      where: r.where,
      claim: r.claim,
      unit: r.unit,
      paperValue: r.paper,
      paperBound: r.bound,
      twinValue,
      twinEvidence,
      twinKind: simulated || !r.twin ? 'simulated' : 'model',
      measured: r.measured,
      benchValue: bench ? bench.ratio : null,
      benchTarget: bench ? bench.target : null,
      benchEvidence: bench ? bench.evidence : null,
      verdict: r.verdict,
      verdictEvidence,
    };
  });
}
