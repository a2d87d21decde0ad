// The committed queue benchmark results (bench/results/queues-<target>.json, written by
// `npm run bench:queues`), read for the queue lesson: a ratio between two of its rows, e.g.
// BatchQueue over the Vyukov MPMC queue in comm with 2 threads, natively. Paired by round when
// both rows carry their per-round rates (the same method as bench/lib/ratios.mjs), else the ratio
// of their medians. These are numbers measured on the machine that ran the benchmark — never the
// visitor's — and every use labels them so, with the run's date, its CPUs and its load. A ratio
// (what a paper row reports) is refused for a run whose threads outnumbered the CPUs it ran on:
// its threads took turns on the cores, which the paper's one-thread-per-core runs never did.
import native from '../../bench/results/queues-native.json';
import wasmChromium from '../../bench/results/queues-wasm-chromium.json';
import wasmNode from '../../bench/results/queues-wasm-node.json';
import { spreadOf } from '../model/spread';

export const BENCH_TARGETS = ['native', 'wasm-node', 'wasm-chromium'] as const;
export type BenchTarget = (typeof BENCH_TARGETS)[number];

interface BenchRow {
  key?: string;
  queue: string;
  variant: string;
  stages: number;
  capacity: number;
  items_per_s: number;
  items_per_s_min?: number;
  items_per_s_max?: number;
  rates?: Array<number | null>;
  run_id?: string;
  threads?: number;
}
interface BenchReport {
  machine: {
    date?: string;
    cpus?: number;
    loadavg_1min_max?: number;
    loadavg_start?: number[];
    load?: { start?: number[] };
  };
  results: BenchRow[];
}

const REPORTS: Record<BenchTarget, BenchReport> = {
  native: native as unknown as BenchReport,
  'wasm-node': wasmNode as unknown as BenchReport,
  'wasm-chromium': wasmChromium as unknown as BenchReport,
};

export interface BenchRatio {
  ratio: number;
  min: number;
  max: number;
  /** Rounds paired (0: the ratio of two medians). */
  pairs: number;
  target: BenchTarget;
  /** When the benchmark ran, and what it says. */
  date: string;
  evidence: string;
}

/** A row's key: `<group>/<queue>`, e.g. `comm-2/batch` (main comparison: capacity 1024). */
const keyOf = (row: BenchRow) => row.key ?? `${row.variant}-${row.stages}/${row.queue}`;

function row(target: BenchTarget, key: string): BenchRow {
  const rows = REPORTS[target].results.filter(
    (r) => keyOf(r) === key && (r.key !== undefined || r.capacity === 1024),
  );
  if (rows.length !== 1)
    throw new Error(
      `bench/results/queues-${target}.json has ${rows.length === 0 ? 'no' : 'more than one'} row ${key}`,
    );
  return rows[0];
}

/** A row's items/s (median, min, max over its rounds) from one target's committed report. */
export function benchRate(
  target: BenchTarget,
  key: string,
): { median: number; min: number; max: number; repeats: number; date: string } {
  const r = row(target, key);
  return {
    median: r.items_per_s,
    min: r.items_per_s_min ?? r.items_per_s,
    max: r.items_per_s_max ?? r.items_per_s,
    repeats: r.rates?.length ?? 1,
    date: REPORTS[target].machine.date ?? 'unknown date',
  };
}

/** Where and how loaded the run was: its date, CPUs and highest 1-minute load. */
function runOf(target: BenchTarget): string {
  const m = REPORTS[target].machine;
  return [
    m.date ?? 'unknown date',
    m.cpus !== undefined ? `${m.cpus} CPUs` : null,
    m.loadavg_1min_max !== undefined ? `1-minute load up to ${m.loadavg_1min_max}` : null,
  ]
    .filter(Boolean)
    .join(', ');
}

/** of / over from one target's committed report; throws naming a missing row, or a row whose
 * threads outnumbered the machine's CPUs. */
export function benchRatio(target: BenchTarget, ofKey: string, overKey: string): BenchRatio {
  const a = row(target, ofKey);
  const b = row(target, overKey);
  const cpus = REPORTS[target].machine.cpus;
  for (const [key, r] of [
    [ofKey, a],
    [overKey, b],
  ] as const)
    if (cpus !== undefined && (r.threads ?? r.stages) > cpus)
      throw new Error(
        `bench/results/queues-${target}.json row ${key} ran ${r.threads ?? r.stages} threads on ${cpus} CPUs: its threads took turns on the cores, so no ratio of it is reported (run npm run bench:queues on a machine with ${r.threads ?? r.stages} CPUs or more)`,
      );
  const date = REPORTS[target].machine.date ?? 'unknown date';
  const run = runOf(target);
  const pairs = (a.rates ?? [])
    .map((x, i) => (x != null && b.rates?.[i] != null ? x / b.rates[i]! : null))
    .filter((x): x is number => x !== null);
  if (pairs.length > 0 && a.run_id === b.run_id) {
    const s = spreadOf(pairs);
    return {
      ...s,
      ratio: s.median,
      pairs: pairs.length,
      target,
      date,
      evidence: `${ofKey} / ${overKey}: median of ${pairs.length} per-round ratios ${s.median.toFixed(2)} [${s.min.toFixed(2)}–${s.max.toFixed(2)}], ${target}, ${run}`,
    };
  }
  const ratio = a.items_per_s / b.items_per_s;
  const min = (a.items_per_s_min ?? a.items_per_s) / (b.items_per_s_max ?? b.items_per_s);
  const max = (a.items_per_s_max ?? a.items_per_s) / (b.items_per_s_min ?? b.items_per_s);
  return {
    ratio,
    min,
    max,
    pairs: 0,
    target,
    date,
    evidence: `${ofKey} / ${overKey}: ratio of medians ${ratio.toFixed(2)} [${min.toFixed(2)}–${max.toFixed(2)}], ${target}, ${run}`,
  };
}
