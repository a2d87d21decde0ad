// Prints the queues benchmark's table of ratios (targets from the queues issue) from the reports
// run.mjs wrote: ratio of medians, the range from the min-max of both sides, and whether it meets
// the target. Also usable alone: node bench/queues/report.mjs (reads bench/results/queues-*.json).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const MAIN_CAPACITY = 1024;

function find(report, queue, variant = 'comm', stages = 2, capacity = MAIN_CAPACITY, batch) {
  return report?.results.find(
    (r) =>
      r.queue === queue &&
      r.variant === variant &&
      r.stages === stages &&
      r.capacity === capacity &&
      (batch === undefined || r.batch === batch),
  );
}

const fmt = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const mps = (r) => `${fmt(r.items_per_s / 1e6)} M/s`;

function ratioLine(label, a, b, target, note = '') {
  if (!a || !b) return `  ${label.padEnd(58)} missing data`;
  const ratio = a.items_per_s / b.items_per_s;
  const low = a.items_per_s_min / b.items_per_s_max;
  const high = a.items_per_s_max / b.items_per_s_min;
  const verdict =
    target === undefined ? 'report' : ratio >= target ? `ok (>= ${target})` : `MISS (< ${target})`;
  return `  ${label.padEnd(58)} ${fmt(ratio).padStart(7)}x  [${fmt(low)}-${fmt(high)}]  ${verdict.padEnd(14)} ${mps(a)} vs ${mps(b)} ${note}`;
}

function wasmLines(name, report, native) {
  const lines = [`${name}:`];
  const batch = find(report, 'batch');
  lines.push(ratioLine('batch in wasm / batch native', batch, find(native, 'batch'), 0.6));
  for (const q of [
    'lamport',
    'lamport-unpadded',
    'cached-spsc',
    'mutex',
    'vyukov-mpmc',
    'moodycamel-rwq',
    'boost-spsc',
  ]) {
    lines.push(ratioLine(`batch / ${q} (per item)`, batch, find(report, q), 5));
  }
  lines.push(
    ratioLine(
      'batch / ringbuf-js one item per call',
      batch,
      find(report, 'ringbuf-js', 'comm', 2, 1024, 1),
      5,
    ),
  );
  lines.push(
    ratioLine(
      'batch / ringbuf-js whole batches of 512',
      batch,
      find(report, 'ringbuf-js', 'comm', 2, 1024, 512),
      1,
    ),
  );
  lines.push(
    ratioLine('false sharing: batch / batch-unpadded', batch, find(report, 'batch-unpadded')),
  );
  lines.push(
    ratioLine(
      'batch / cached-spsc-batched (same batch)',
      batch,
      find(report, 'cached-spsc-batched'),
    ),
  );
  return lines;
}

export function printTable(reports) {
  const native = reports.native;
  const lines = [
    '',
    'Queue benchmark ratios (ratio of medians [min-max range], 8-byte items, capacity 1024, semi-buffer 512):',
  ];
  if (native) {
    const b2 = find(native, 'batch');
    lines.push('native, comm, 2 threads:');
    for (const q of ['lamport', 'moodycamel-rwq', 'boost-spsc'])
      lines.push(ratioLine(`batch / ${q}`, b2, find(native, q), 2));
    lines.push(ratioLine('batch / cached-spsc (per item)', b2, find(native, 'cached-spsc'), 1.3));
    lines.push(
      ratioLine('batch / cached-spsc-batched', b2, find(native, 'cached-spsc-batched'), 1),
    );
    lines.push(
      ratioLine(
        'batch / mutex',
        b2,
        find(native, 'mutex'),
        10,
        '(paper: 2.3x over its native queue)',
      ),
    );
    lines.push(ratioLine('batch / vyukov-mpmc', b2, find(native, 'vyukov-mpmc')));
    lines.push(
      ratioLine('false sharing: batch / batch-unpadded', b2, find(native, 'batch-unpadded')),
    );
    lines.push(
      ratioLine(
        'false sharing: lamport / lamport-unpadded',
        find(native, 'lamport'),
        find(native, 'lamport-unpadded'),
      ),
    );
    lines.push('native, 4-stage chain and matrix:');
    lines.push(
      ratioLine(
        'comm, 4 stages: batch / mutex',
        find(native, 'batch', 'comm', 4),
        find(native, 'mutex', 'comm', 4),
        3,
        '(paper: 3x)',
      ),
    );
    lines.push(
      ratioLine(
        'matrix, 2 threads: batch / mutex',
        find(native, 'batch', 'matrix', 2),
        find(native, 'mutex', 'matrix', 2),
        undefined,
        '(paper: 1.4x)',
      ),
    );
    lines.push(
      ratioLine(
        'matrix, 4 stages: batch / mutex',
        find(native, 'batch', 'matrix', 4),
        find(native, 'mutex', 'matrix', 4),
        undefined,
        '(paper: 1.7x)',
      ),
    );
  }
  if (reports['wasm-node'])
    lines.push(...wasmLines('wasm under Node', reports['wasm-node'], native));
  if (reports['wasm-chromium'])
    lines.push(...wasmLines('wasm in Chromium', reports['wasm-chromium'], native));
  lines.push(
    'BatchQueue by semi-buffer size (comm, 2 threads; latency at an offered 5 M items/s, no flush):',
  );
  lines.push(
    `  ${'semi-buffer'.padEnd(18)}${Object.keys(reports)
      .map((t) => `${t} M/s | median latency us (p99)`.padEnd(44))
      .join('')}`,
  );
  for (const lines64 of [1, 2, 4, 8, 16, 64]) {
    const semi = lines64 * 8;
    const cells = Object.values(reports).map((report) => {
      const t = find(report, 'batch', 'comm', 2, semi * 2);
      const l = find(report, 'batch', 'latency', 2, semi * 2);
      const u = find(report, 'batch-unpadded', 'comm', 2, semi * 2);
      const cell = `${t ? fmt(t.items_per_s / 1e6) : '-'}${u ? ` (unpadded ${fmt(u.items_per_s / 1e6)})` : ''} | ${l ? `${fmt(l.latency_ns_median / 1e3)} (${fmt(l.latency_ns_p99 / 1e3)})` : '-'}`;
      return cell.padEnd(44);
    });
    lines.push(`  ${`${lines64} line(s) = ${semi}`.padEnd(18)}${cells.join('')}`);
  }
  for (const q of ['cached-spsc', 'lamport']) {
    const cells = Object.values(reports).map((report) => {
      const l = find(report, q, 'latency', 2);
      return (
        l ? `per item | ${fmt(l.latency_ns_median / 1e3)} (${fmt(l.latency_ns_p99 / 1e3)})` : '-'
      ).padEnd(44);
    });
    lines.push(`  ${q.padEnd(18)}${cells.join('')}`);
  }
  console.log(lines.join('\n'));
}

export function loadReports(root) {
  const reports = {};
  for (const target of ['native', 'wasm-node', 'wasm-chromium']) {
    const file = join(root, 'bench/results', `queues-${target}.json`);
    if (existsSync(file)) reports[target] = JSON.parse(readFileSync(file, 'utf8'));
  }
  return reports;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  printTable(loadReports(join(dirname(fileURLToPath(import.meta.url)), '..', '..')));
}
