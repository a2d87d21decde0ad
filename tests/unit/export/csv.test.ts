// CSV exports read back with an RFC 4180 parser: the columns are the documented ones, every row
// has them all, numbers are numbers, each row says where its number came from, and fields with
// commas or quotes survive.
import { expect, test } from 'vitest';
import { chartCsvColumns, chartCsv, runCsv, RUN_CSV_COLUMNS, toCsv } from '../../../src/export/csv';
import { recordTwin, twinSpec } from '../replay/twinRecording';

/** RFC 4180: quoted fields may hold commas, doubled quotes and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const endField = () => {
    row.push(field);
    field = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') endField();
    else if (c === '\r' && text[i + 1] === '\n') {
      endField();
      rows.push(row);
      row = [];
      i++;
    } else field += c;
  }
  expect(field).toBe('');
  expect(row).toEqual([]);
  return rows;
}

const isNumber = (s: string) => s !== '' && Number.isFinite(Number(s));

test('chart CSV: a control named like another column keeps the columns distinct', () => {
  expect(chartCsvColumns('kind')).toEqual([
    'series',
    'kind',
    'x_kind',
    'items_per_s',
    'min_items_per_s',
    'max_items_per_s',
  ]);
});

test('chart CSV: runs and sweep points with their spread, then the model curves', () => {
  const text = chartCsv(
    [
      { x: 1, y: 61.5, source: 'threads' },
      { x: 2, y: 118, min: 110, max: 121.5, source: 'threads' },
      { x: 16, y: 240, min: 238, max: 244, source: 'simulation' },
    ],
    [
      {
        label: 'Case 1, "per server"',
        points: [
          [1, 62],
          [2, 120],
        ],
      },
      { label: 'Ideal', points: [[1, 70]] },
    ],
    'threads',
  );
  const [header, ...rows] = parseCsv(text);
  // The swept control's column is headed by its URL parameter name.
  expect(header).toEqual([
    'series',
    'kind',
    'threads',
    'items_per_s',
    'min_items_per_s',
    'max_items_per_s',
  ]);
  expect(rows).toHaveLength(6);
  for (const r of rows) {
    expect(r).toHaveLength(header.length);
    expect(isNumber(r[2]) && isNumber(r[3])).toBe(true);
    expect(['measured', 'simulated', 'model']).toContain(r[1]);
  }
  expect(rows[0]).toEqual(['runs', 'measured', '1', '61.5', '', '']);
  expect(rows[1]).toEqual(['runs', 'measured', '2', '118', '110', '121.5']);
  expect(rows[2].slice(0, 2)).toEqual(['runs', 'simulated']);
  expect(rows[3]).toEqual(['Case 1, "per server"', 'model', '1', '62', '', '']);
});

test('run CSV: each frame’s counters per stage, numeric, ending at the items put out', () => {
  const rec = recordTwin(twinSpec('static'));
  const [header, ...rows] = parseCsv(runCsv(rec));
  expect(header).toEqual([...RUN_CSV_COLUMNS]);
  expect(header).toEqual([
    'time_us',
    'stage',
    'stage_name',
    'items_in',
    'items_out',
    'queue_occupancy',
    'busy_us',
    'idle_us',
    'blocked_us',
    'dropped_events',
    'kind',
  ]);
  expect(rows).toHaveLength(rec.samples.length * 3);
  for (const r of rows) {
    expect(r).toHaveLength(header.length);
    for (const k of [0, 1, 3, 4, 5, 6, 7, 8, 9])
      expect(isNumber(r[k]), `${header[k]}=${r[k]}`).toBe(true);
    expect(r[2]).toBe(rec.spec.stages[Number(r[1])].name);
    expect(r[10]).toBe('simulated');
  }
  const lastOut = rows.at(-1)!;
  expect([lastOut[2], lastOut[4]]).toEqual(['output', '300']);
});

test('a row with the wrong number of fields is refused', () => {
  expect(() => toCsv(['a', 'b'], [[1, 2], [3]])).toThrow(
    'csv row 1 has 1 fields (the header has 2)',
  );
});
