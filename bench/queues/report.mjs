// The queue benchmark's ratios (targets from the queues issue) and its printed report. Ratios are
// computed from the rows (paired by round: bench/lib/ratios.mjs) and saved in each target's JSON;
// the table prints exactly what is saved. Also usable alone: node bench/queues/report.mjs prints
// the reports in bench/results/queues-*.json.
import { fileURLToPath } from 'node:url';
import { formatRatios, ratio } from '../lib/ratios.mjs';
import { readReport } from '../lib/report.mjs';

export const TARGETS = ['native', 'wasm-node', 'wasm-chromium'];
export const GROUPS = [
  'comm-2',
  'comm-4',
  'matrix-2',
  'matrix-4',
  'semi-sweep',
  'latency',
  'floor',
  'costs',
];
const PER_ITEM_PEERS = [
  'lamport',
  'lamport-unpadded',
  'cached-spsc',
  'mutex',
  'vyukov-mpmc',
  'moodycamel-rwq',
  'boost-spsc',
  'fastforward',
];
/** The paper's ratios (seed 001, §IV-A: BatchQueue over the stream extension's native MPMC queue),
 * against ours over the Vyukov MPMC queue that stands in for it; the queue lesson shows them. */
const PAPER = { 'comm-2': '2.3x', 'matrix-2': '1.4x', 'comm-4': '3x', 'matrix-4': '1.7x' };

/** Ratios every target reports: the paper's (comm-2's is in each target's own list), per item
 * against batched on one ring, and the one-thread floor. */
function sharedRatios(row) {
  return [
    ...Object.entries(PAPER)
      .filter(([group]) => group !== 'comm-2')
      .map(([group, paper]) =>
        ratio(`${group}: batch / vyukov-mpmc`, row(`${group}/batch`), row(`${group}/vyukov-mpmc`), {
          note: `(paper: ${paper} over its native MPMC queue)`,
        }),
      ),
    ratio(
      'comm-2: batched / per item, the same ring (cached-spsc-batched / cached-spsc)',
      row('comm-2/cached-spsc-batched'),
      row('comm-2/cached-spsc'),
    ),
    ratio(
      'floor: batch / vyukov-mpmc, one thread alone (what the 2-thread ratio can reach)',
      row('floor/batch'),
      row('floor/vyukov-mpmc'),
    ),
    ratio(
      'floor: batch / moodycamel-rwq, one thread alone',
      row('floor/batch'),
      row('floor/moodycamel-rwq'),
    ),
    ...costsRatios(row),
  ];
}

/** The costs group (bench/README.md): each hypothesis about the per-item ratio alone. */
function costsRatios(row) {
  const c = (key) => row(`costs/${key}`);
  return [
    ratio(
      'costs: batch / vyukov-mpmc, per item, one process',
      c('batch-park'),
      c('vyukov-mpmc-park'),
    ),
    ratio('costs: batch spinning / parking (wait policy)', c('batch-spin'), c('batch-park')),
    ratio(
      'costs: batch, consumer touches each line on taking it / as is',
      c('batch-touch-read'),
      c('batch-park'),
    ),
    ratio(
      'costs: batch, producer touches each line on refilling / as is',
      c('batch-touch-write'),
      c('batch-park'),
    ),
    ratio('costs: batch, both sides touch / as is', c('batch-touch-both'), c('batch-park')),
    ratio(
      'costs: batch touching both sides / vyukov-mpmc',
      c('batch-touch-both'),
      c('vyukov-mpmc-park'),
    ),
    ratio(
      'costs: flag stores per s, release / seq_cst (one thread)',
      c('store-release'),
      c('store-seq-cst'),
    ),
    ratio(
      'costs: flag hand-offs per s, release / seq_cst (two threads)',
      c('flip-release'),
      c('flip-seq-cst'),
    ),
  ];
}

const finder = (report) => (key) => report?.results.find((row) => row.key === key);

function nativeRatios(row) {
  const batch = row('comm-2/batch');
  const out = [
    ...['lamport', 'moodycamel-rwq', 'boost-spsc'].map((q) =>
      ratio(`comm-2: batch / ${q}`, batch, row(`comm-2/${q}`), { goal: 2 }),
    ),
    ratio('comm-2: batch / cached-spsc (per item)', batch, row('comm-2/cached-spsc'), {
      goal: 1.3,
    }),
    ratio('comm-2: batch / cached-spsc-batched', batch, row('comm-2/cached-spsc-batched'), {
      goal: 1,
    }),
    ratio('comm-2: batch / mutex', batch, row('comm-2/mutex'), { goal: 10 }),
    ratio('comm-2: batch / vyukov-mpmc', batch, row('comm-2/vyukov-mpmc'), {
      note: `(paper: ${PAPER['comm-2']} over its native MPMC queue)`,
    }),
    ratio('comm-2: batch / fastforward', batch, row('comm-2/fastforward')),
    ratio('comm-2: false sharing, batch / batch-unpadded', batch, row('comm-2/batch-unpadded')),
    ratio(
      'comm-2: false sharing, lamport / lamport-unpadded',
      row('comm-2/lamport'),
      row('comm-2/lamport-unpadded'),
    ),
    ratio('comm-4: batch / mutex', row('comm-4/batch'), row('comm-4/mutex'), { goal: 3 }),
  ];
  for (const group of ['matrix-2', 'matrix-4'])
    out.push(ratio(`${group}: batch / mutex`, row(`${group}/batch`), row(`${group}/mutex`)));
  return [...out, ...sharedRatios(row)];
}

function wasmRatios(row, nativeRow) {
  const batch = row('comm-2/batch');
  return [
    ratio('comm-2: batch in wasm / batch native', batch, nativeRow('comm-2/batch'), { goal: 0.6 }),
    ...PER_ITEM_PEERS.map((q) =>
      ratio(`comm-2: batch / ${q} (per item)`, batch, row(`comm-2/${q}`), { goal: 5 }),
    ),
    ratio('comm-2: batch / ringbuf-js one item per call', batch, row('comm-2/ringbuf-js-b1'), {
      goal: 5,
    }),
    ratio('comm-2: batch / ringbuf-js batches of 512', batch, row('comm-2/ringbuf-js-b512'), {
      note: '(per-item calls against 512 per call)',
    }),
    ratio(
      'comm-2: batch 512 per call / ringbuf-js batches of 512 (the same batch, both copying)',
      row('comm-2/batch-b512'),
      row('comm-2/ringbuf-js-b512'),
      { goal: 1 },
    ),
    ratio('comm-2: false sharing, batch / batch-unpadded', batch, row('comm-2/batch-unpadded')),
    ratio(
      'comm-2: batch / cached-spsc-batched (same batch)',
      batch,
      row('comm-2/cached-spsc-batched'),
    ),
    ...sharedRatios(row),
  ];
}

/**
 * The ratios saved in one target's report.
 * @param {string} target
 * @param {Record<string, {results: object[]}>} reports  every target's report (native for wasm/native)
 */
export function queueRatios(target, reports) {
  const row = finder(reports[target]);
  const ratios = target === 'native' ? nativeRatios(row) : wasmRatios(row, finder(reports.native));
  return ratios.filter(Boolean);
}

const fmt = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));

/** BatchQueue by semi-buffer size: throughput (padded, unpadded) and latency, per target. */
function semiTable(reports) {
  const targets = Object.keys(reports);
  const lines = [
    'BatchQueue by semi-buffer size (comm, 2 threads: M items/s, unpadded in brackets; median latency us at an offered 5 M items/s, p99 in brackets):',
    `  ${'semi-buffer'.padEnd(20)}${targets.map((t) => t.padEnd(36)).join('')}`,
  ];
  const semis = [8, 16, 32, 64, 128, 512];
  const cell = (report, padded, unpadded, latency) => {
    const t = padded ? `${fmt(padded.items_per_s / 1e6)}` : '-';
    const u = unpadded ? ` (${fmt(unpadded.items_per_s / 1e6)})` : '';
    const l = latency
      ? ` | ${fmt(latency.latency_ns_median / 1e3)} (${fmt(latency.latency_ns_p99 / 1e3)})`
      : '';
    return `${t}${u}${l}`.padEnd(36);
  };
  for (const semi of semis) {
    const cells = targets.map((t) => {
      const row = finder(reports[t]);
      return cell(
        reports[t],
        row(`semi-sweep/batch-semi${semi}`),
        row(`semi-sweep/batch-unpadded-semi${semi}`),
        row(`latency/batch-semi${semi}`),
      );
    });
    lines.push(`  ${`${semi} items`.padEnd(20)}${cells.join('')}`);
  }
  for (const q of ['cached-spsc', 'lamport']) {
    const cells = targets.map((t) =>
      cell(reports[t], null, null, finder(reports[t])(`latency/${q}`)),
    );
    lines.push(`  ${`${q} latency`.padEnd(20)}${cells.join('')}`);
  }
  return lines.join('\n');
}

/** Prints every report's saved ratios, then the semi-buffer table. */
export function printQueues(reports) {
  const parts = [
    '',
    'Queue benchmark ratios (median of per-round ratios [min-max]; best: ratio of the fastest rounds; 8-byte items, capacity 1024, semi-buffer 512):',
  ];
  for (const [target, report] of Object.entries(reports))
    parts.push(formatRatios(`${target}:`, report.ratios ?? []));
  parts.push(semiTable(reports));
  console.log(parts.join('\n'));
}

/** The reports on disk, by target. */
export function loadReports() {
  return Object.fromEntries(
    TARGETS.map((t) => [t, readReport(`queues-${t}`)]).filter(([, report]) => report),
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) printQueues(loadReports());
