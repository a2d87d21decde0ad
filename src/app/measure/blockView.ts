// A measurement block's values as its views draw them: each series' number at each of the block's
// values (a run's, a ratio of two runs', or the model's) with where it came from; the charts, one
// per unit, as the model chart (one line of settings) or the series chart (several: e.g. two
// graphs); the values the block reports to the lesson's paper rows. Pure.
import type { ModelChartProps } from '../../views/ModelChart';
import type { Series } from '../../views/SeriesChart';
import { threadColor } from '../../views/threadColors';
import type { ControlValues } from '../../lessons/controls';
import {
  lineSettings,
  RUN_SOURCES,
  sameLine,
  type BlockSeries,
  type MeasureBlock,
  type Term,
} from '../../lessons/measureBlocks';
import { MEASURABLE } from '../../lessons/measureQuantities';
import type { EngineKind } from '../../engine/pipeline/pipelineRun';
import { modelValues, type BlockLesson, type BlockValue } from './planBlock';

/** A series' number at one value: from runs (measured / simulated) or computed (model). */
export interface Cell {
  y: number;
  min?: number;
  max?: number;
  kind: 'measured' | 'simulated' | 'model';
  source: EngineKind | null;
  checksum?: { checksum: string; bytes: number } | null;
}

const isRun = (t: Term) => RUN_SOURCES.includes(t.source);

/** Each series' cells, by series key, one per block value (null: nothing yet, or n/a). */
export function cellsOf(
  lesson: BlockLesson,
  block: MeasureBlock,
  values: ControlValues,
  results: BlockValue[],
): Record<string, Array<Cell | null>> {
  const find = (series: string, side: 'of' | 'over', at: number) =>
    results.find((r) => r.series === series && r.side === side && r.at === at) ?? null;
  const out: Record<string, Array<Cell | null>> = {};
  for (const s of block.series) {
    if (!isRun(s.of)) {
      const of = modelValues(lesson, block, values, s.of);
      const over = s.over ? modelValues(lesson, block, values, s.over) : null;
      out[s.key] = of.map((y, i) => {
        const d = over ? over[i] : 1;
        return y === null || d === null || d === 0
          ? null
          : { y: y / d, kind: 'model', source: null };
      });
      continue;
    }
    out[s.key] = block.values.map((_, at) => {
      const a = find(s.key, 'of', at);
      if (!a) return null;
      const kind = a.source === 'threads' ? 'measured' : 'simulated';
      if (s.unit === 'checksum')
        return { y: 0, kind, source: a.source, checksum: a.checksum ?? null };
      if (a.y === null) return null;
      if (!s.over) return { y: a.y, min: a.min, max: a.max, kind, source: a.source };
      const b = find(s.key, 'over', at);
      // A ratio of a measured run over a simulated one is neither: it is not shown.
      if (!b || b.y === null || b.y === 0 || b.source !== a.source) return null;
      return { y: a.y / b.y, kind, source: a.source };
    });
  }
  return out;
}

/** What an axis of a unit says. */
export function unitLabel(block: MeasureBlock, unit: string): string {
  const run = block.series.find((s) => s.unit === unit && isRun(s.of) && !s.over);
  const words = run
    ? (MEASURABLE.find((m) => m.matches(run.of.quantity))?.words ?? run.of.quantity)
    : unit === 'ratio'
      ? 'ratio'
      : (block.series.find((s) => s.unit === unit)?.label ?? unit);
  return unit === 'ratio' ? words : `${words} (${unit})`;
}

/** The units a block's charts draw, in the order its series name them. */
export const chartUnits = (block: MeasureBlock): string[] => [
  ...new Set(block.series.map((s) => s.unit).filter((u) => u !== 'checksum')),
];

/** The lines of settings a unit's series are on (`[graph=linear]`, `[graph=branched]`). */
function linesOf(block: MeasureBlock, unit: string): string[] {
  return [
    ...new Set(
      block.series
        .filter((s) => s.unit === unit)
        .map((s) => JSON.stringify(Object.entries(lineSettings(s.of, block.over)).sort())),
    ),
  ];
}

/** A measured series' cell that the twin served (the page could not measure) is the twin
 * series' own point when the block has one: drawn once. */
function drawn(block: MeasureBlock, s: BlockSeries, c: Cell): boolean {
  if (s.of.source !== 'measured' || c.kind === 'measured') return true;
  return !block.series.some(
    (t) =>
      t.of.source === 'twin' &&
      t.of.quantity === s.of.quantity &&
      !t.over === !s.over &&
      sameLine({ ...t.of, source: 'measured' }, s.of, block.over),
  );
}

/** What a run series runs, measured or on the twin alike (`input-throughput.serial`). */
const whatRuns = (s: BlockSeries) => `${s.of.quantity}${s.over ? ` / ${s.over.quantity}` : ''}`;
const MARKS = 'abcdefghijkl';

export type BlockChart =
  | { view: 'model'; unit: string; props: Omit<ModelChartProps, 'width'> }
  | { view: 'series'; unit: string; series: Series[]; yLabel: string; xLabel: string };

export function chartsOf(
  block: MeasureBlock,
  cells: Record<string, Array<Cell | null>>,
  currentX: number | undefined,
): BlockChart[] {
  const xs = block.values as number[];
  const xLabel = block.over.label;
  return chartUnits(block).map((unit) => {
    const series = block.series.filter((s) => s.unit === unit);
    const yLabel = unitLabel(block, unit);
    const pointsOf = (s: BlockSeries) =>
      cells[s.key].flatMap((c, i) =>
        c && c.source !== null && drawn(block, s, c)
          ? [{ x: xs[i], y: c.y, min: c.min, max: c.max, source: c.source }]
          : [],
      );
    const curveOf = (s: BlockSeries) =>
      cells[s.key].flatMap((c, i): Array<[number, number]> => (c ? [[xs[i], c.y]] : []));
    const lines = linesOf(block, unit);
    if (lines.length <= 1) {
      const curves = series
        .filter((s) => !isRun(s.of))
        .map((s, i) => ({ id: s.key, label: s.label, points: curveOf(s), dashed: i > 0 }));
      // Runs of two quantities on one chart (readers and one thread alone) are told apart by a
      // letter beside each point, which the legend names; measured and twin of one share it.
      const runs = series.filter((s) => isRun(s.of));
      const quantities = [...new Set(runs.map(whatRuns))];
      const marked = quantities.length > 1;
      return {
        view: 'model',
        unit,
        props: {
          xLabel,
          yLabel,
          curves,
          points: runs.flatMap((s) =>
            pointsOf(s).map((p) =>
              marked ? { ...p, series: quantities.indexOf(whatRuns(s)) } : p,
            ),
          ),
          series: marked
            ? quantities.map((q, i) => ({
                mark: MARKS[i],
                label:
                  runs.find((s) => whatRuns(s) === q && s.of.source === 'measured')?.label ??
                  runs.find((s) => whatRuns(s) === q)!.label,
              }))
            : undefined,
          currentX,
          logX: block.logX,
          logY: block.logY.includes(unit),
        },
      };
    }
    // Several lines: one coloured series per line, its first model series as its curve.
    return {
      view: 'series',
      unit,
      xLabel,
      yLabel,
      series: lines.map((line, i) => {
        const on = series.filter(
          (s) => JSON.stringify(Object.entries(lineSettings(s.of, block.over)).sort()) === line,
        );
        const model = on.find((s) => !isRun(s.of));
        const named = on.find((s) => isRun(s.of)) ?? on[0];
        const settings = Object.values(JSON.parse(line) as Array<[string, unknown]>).map(([, v]) =>
          String(v),
        );
        return {
          id: settings.join('-') || `line-${i}`,
          label: named.label,
          color: threadColor(i),
          curve: model ? curveOf(model) : undefined,
          points: on.filter((s) => isRun(s.of)).flatMap(pointsOf),
        };
      }),
    };
  });
}

/** The value a report's term names (`measured.x[over=v]`) once it has been measured on real
 * threads; null before (or where the twin served it). */
export function reportValue(block: MeasureBlock, results: BlockValue[], term: Term): number | null {
  const at = block.values.findIndex((v) => String(v) === String(term.set[block.over.id]));
  for (const s of block.series)
    for (const side of ['of', 'over'] as const) {
      const t = side === 'of' ? s.of : s.over;
      if (!t || !sameLine(t, term, block.over)) continue;
      const r = results.find(
        (v) => v.series === s.key && v.side === side && v.at === at && v.source === 'threads',
      );
      if (r && r.y !== null) return r.y;
    }
  return null;
}
