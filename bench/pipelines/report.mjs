// The pipeline benchmark's ratios and printed report. Ratios are computed from the rows (paired by
// round: bench/lib/ratios.mjs) and saved in each target's JSON; the printout is exactly what is
// saved. wasm/native ratios are given twice: as measured, and at equal work per item (each
// side's rate scaled by its achieved / nominal service time), since the calibrated busy work does
// not take the same time on both targets. Also usable alone: node bench/pipelines/report.mjs.
import { fileURLToPath } from 'node:url';
import { formatRatios, ratio } from '../lib/ratios.mjs';
import { readReport } from '../lib/report.mjs';

export const TARGETS = ['native', 'wasm-node', 'wasm-chromium'];
const IO_BATCHES = [64, 1024, 4096]; // up to the spec's largest batchItems
export const GROUPS = [
  'vs-onetbb-10us',
  'vs-onetbb-1000us',
  'scaling',
  'stages',
  'imbalance',
  'telemetry',
  'cross-target-100us',
  ...IO_BATCHES.map((b) => `io-output-b${b}`),
  'io-input-b1024',
];

const finder = (report) => (key) => report?.results.find((row) => row.key === key);
const AT_EQUAL_WORK = { series: 'rates_corrected', value: 'items_per_s_corrected' };

/** Ratios between rows of one target. */
function targetRatios(report) {
  const row = finder(report);
  const out = [];
  for (const [us, goal] of [
    [10, 0.9],
    [1000, 0.97],
  ]) {
    const g = `vs-onetbb-${us}us`;
    out.push(
      ratio(
        `work-stealing / onetbb, ${us} us stages`,
        row(`${g}/work-stealing`),
        row(`${g}/onetbb`),
        { goal },
      ),
    );
  }
  const scaling = (report?.results ?? []).filter((r) => r.group === 'scaling');
  const maxT = Math.max(1, ...scaling.map((r) => r.threads));
  for (const rt of ['work-stealing', 'onetbb'])
    out.push(
      ratio(
        `${rt} scaling, ${maxT} / 1 threads`,
        row(`scaling/${rt}-t${maxT}`),
        row(`scaling/${rt}-t1`),
      ),
    );
  out.push(
    ratio(
      `work-stealing / onetbb, scaling at ${maxT} threads`,
      row(`scaling/work-stealing-t${maxT}`),
      row(`scaling/onetbb-t${maxT}`),
    ),
  );
  for (const rt of ['work-stealing', 'onetbb', 'static'])
    out.push(ratio(`${rt}: 6 stages / 3 stages`, row(`stages/${rt}-6`), row(`stages/${rt}-3`)));
  for (const rt of ['collapsed', 'work-stealing'])
    out.push(
      ratio(`${rt} / static under imbalance`, row(`imbalance/${rt}`), row('imbalance/static')),
    );
  out.push(
    ratio(
      'telemetry on / off',
      row('telemetry/work-stealing-on'),
      row('telemetry/work-stealing-off'),
      { goal: 0.97 },
    ),
  );
  for (const batch of IO_BATCHES) {
    const rows = (report?.results ?? []).filter(
      (r) => r.group === `io-output-b${batch}` && r.runtime === 'two-stage-output',
    );
    if (!rows.length) continue;
    const best = rows.reduce((a, r) => (r.items_per_s > a.items_per_s ? r : a));
    out.push(
      ratio(
        `two-stage output (best: t=${best.compute_threads}) / dual-thread, batch ${batch}`,
        best,
        row(`io-output-b${batch}/dual-thread`),
      ),
    );
  }
  // The issue's target: all cores formatting against one thread doing everything (batch 1024).
  const cores = Math.max(
    0,
    ...(report?.results ?? [])
      .filter((r) => r.group === 'io-output-b1024' && r.runtime === 'two-stage-output')
      .map((r) => r.compute_threads),
  );
  if (cores > 0) {
    out.push(
      ratio(
        `two-stage output (t=${cores}) / serial output, batch 1024`,
        row(`io-output-b1024/two-stage-output-t${cores}`),
        row('io-output-b1024/serial-output'),
        { goal: +(0.9 * cores).toFixed(2) },
      ),
    );
    out.push(
      ratio(
        `two-stage input (t=${cores}) / serial input, spans of 1024`,
        row(`io-input-b1024/two-stage-input-t${cores}`),
        row('io-input-b1024/serial-input'),
      ),
    );
  }
  return out;
}

/** wasm / native ratios, as measured and at equal work per item. */
function crossRatios(wasm, native) {
  const [w, n] = [finder(wasm), finder(native)];
  const out = [];
  for (const [label, key, goal] of [
    ['100 us stages', 'cross-target-100us/work-stealing', 0.8],
    ['10 us stages', 'vs-onetbb-10us/work-stealing', undefined],
  ]) {
    out.push(ratio(`wasm / native, ${label}, as measured`, w(key), n(key)));
    out.push(
      ratio(`wasm / native, ${label}, at equal work per item`, w(key), n(key), {
        ...AT_EQUAL_WORK,
        goal,
      }),
    );
  }
  return out;
}

/**
 * The ratios saved in one target's report.
 * @param {string} target
 * @param {Record<string, {results: object[]}>} reports  every target's report (native for wasm/native)
 */
export function pipelineRatios(target, reports) {
  const own = targetRatios(reports[target]);
  const cross = target === 'native' ? [] : crossRatios(reports[target], reports.native);
  return [...own, ...cross].filter(Boolean);
}

/** The two-stage output rows: items/s and mean latency per batch, per thread count. */
function ioTable(report) {
  const io = (report?.results ?? []).filter((r) => r.group?.startsWith('io-output'));
  if (!io.length) return [];
  const lines = ['  two-stage output vs dual-thread (items/s; mean latency per batch, us):'];
  for (const batch of IO_BATCHES) {
    const cells = io
      .filter((r) => r.batch_items === batch)
      .map(
        (r) =>
          `${r.runtime === 'dual-thread' ? 'dual' : `t=${r.compute_threads}`} ${r.items_per_s.toFixed(0)}/s ${r.mean_batch_latency_us.toFixed(0)}us`,
      );
    if (cells.length) lines.push(`    batch ${batch}: ${cells.join('; ')}`);
  }
  return lines;
}

/** Achieved vs nominal work per item, per busy-work row: the calibration's accuracy here. */
function serviceTable(report) {
  const rows = (report?.results ?? []).filter((r) => r.work_us_per_item_achieved !== undefined);
  if (!rows.length) return [];
  const cells = rows.map(
    (r) => `${r.key} ${r.work_us_per_item_achieved.toFixed(1)}/${r.work_us_per_item}`,
  );
  return [
    '  achieved/nominal us of work per item (measured after each run):',
    `    ${cells.join('; ')}`,
  ];
}

export function printPipelines(reports) {
  const parts = [
    '',
    'Pipeline benchmark ratios (median of per-round ratios [min-max]; best: ratio of the fastest rounds):',
  ];
  for (const [target, report] of Object.entries(reports)) {
    parts.push(formatRatios(`${target}:`, report.ratios ?? []));
    parts.push(...serviceTable(report), ...ioTable(report));
  }
  console.log(parts.join('\n'));
}

/** The reports on disk, by target. */
export function loadReports() {
  return Object.fromEntries(
    TARGETS.map((t) => [t, readReport(`pipelines-${t}`)]).filter(([, report]) => report),
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) printPipelines(loadReports());
