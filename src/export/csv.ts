// CSV exports (RFC 4180: comma-separated, CRLF rows, quoted where needed): the model chart's data
// — every run and sweep point with its spread, and the model curves — and a recorded run's stage
// counters over time. Every row says where its number came from (measured, simulated or model).
import { dataKindOf } from '../engine/pipeline/pipelineRun';
import type { ChartPoint } from '../engine/sweep';
import type { Recording } from '../replay/recording';
import { STAGE_COUNTER_FIELDS } from '../telemetry';

export type CsvCell = string | number | null;

/** A field quoted when it holds a comma, a quote or a line break; null is empty. */
function cell(value: CsvCell): string {
  if (value === null) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function toCsv(header: readonly string[], rows: readonly CsvCell[][]): string {
  for (const [i, r] of rows.entries())
    if (r.length !== header.length)
      throw new Error(`csv row ${i} has ${r.length} fields (the header has ${header.length})`);
  return [header, ...rows].map((r) => r.map(cell).join(',')).join('\r\n') + '\r\n';
}

/** The chart CSV's columns; the third, the swept control's value, is named for the control. */
export const chartCsvColumns = (xColumn: string) =>
  [
    'series',
    'kind',
    // A control named like another column (none is today) keeps the columns distinct.
    ['series', 'kind', 'items_per_s', 'min_items_per_s', 'max_items_per_s'].includes(xColumn)
      ? `x_${xColumn}`
      : xColumn,
    'items_per_s',
    'min_items_per_s',
    'max_items_per_s',
  ] as const;

/**
 * The model chart's data, one row per mark: runs and sweep points (series "runs", kind measured
 * or simulated, with the spread of their repeats when they have one), then each model curve's
 * points (series = the curve's label, kind model). The third column is the swept control's value,
 * headed by its URL parameter name (`threads`), so the file says what was swept.
 */
export function chartCsv(
  points: readonly ChartPoint[],
  curves: ReadonlyArray<{ label: string; points: Array<[number, number]> }>,
  xColumn: string,
): string {
  const rows: CsvCell[][] = [
    ...points.map((p) => ['runs', dataKindOf(p.source), p.x, p.y, p.min ?? null, p.max ?? null]),
    ...curves.flatMap((c) => c.points.map(([x, y]) => [c.label, 'model', x, y, null, null])),
  ];
  return toCsv(chartCsvColumns(xColumn), rows);
}

/** Counter names as CSV columns: itemsIn → items_in, busyUs → busy_us. */
const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

export const RUN_CSV_COLUMNS = [
  'time_us',
  'stage',
  'stage_name',
  ...STAGE_COUNTER_FIELDS.map(snake),
  'dropped_events',
  'kind',
] as const;

/** A recorded run's stage counters as the page read them, one row per frame and stage; times in
 * whole µs (the page's clock reads to a few µs at best, and 9170.00000178814 helps no reader). */
export function runCsv(rec: Recording): string {
  const kind = dataKindOf(rec.engine);
  const rows = rec.samples.flatMap((s) =>
    s.counters.map((c, stage): CsvCell[] => [
      Math.round(s.timeUs),
      stage,
      rec.spec.stages[stage].name,
      ...STAGE_COUNTER_FIELDS.map((f) => c[f]),
      s.dropped,
      kind,
    ]),
  );
  return toCsv(RUN_CSV_COLUMNS, rows);
}
