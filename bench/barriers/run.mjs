// `npm run bench:barriers`: barrier round-trip time for 2..cores threads — our spinning and
// blocking barriers (wasm/include/pipelab/sync) natively and in wasm under Node, beside
// std::barrier natively (the peer; Emscripten's libc++ has none) — written to
// bench/results/barriers-native.json and barriers-wasm-node.json (DESIGN.md: "bench": "barriers",
// "barrier": spin|blocking|std-barrier, "threads", "us_per_barrier"), with the ratios printed and
// saved. Method: the shared interleaved rounds (bench/lib/rounds.mjs, one group per thread count):
// each round runs one process per target back to back, targets and barriers in rotating order;
// every timed run lasts at least --min-ms. A row's `items` are barriers passed and `items_per_s`
// barriers per second, so the shared rows, ratios and machine block (with the load average: a
// spinning barrier is as slow as the load makes it) apply unchanged; `us_per_barrier` is kept
// with its min and max. Benchmarks report numbers; they are not tests.
import os from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../../scripts/lib/proc.mjs';
import { parseFlags, runMain } from '../lib/cli.mjs';
import { measure } from '../lib/measure.mjs';
import { buildBench, runProgram } from '../lib/programs.mjs';
import { formatRatios, ratio } from '../lib/ratios.mjs';
import { roundFlags, rotate } from '../lib/rounds.mjs';

const TARGETS = ['native', 'wasm-node'];
/** One group per thread count, 2..cores (at least 2). */
const GROUPS = Array.from({ length: Math.max(1, os.cpus().length - 1) }, (_, i) => `${i + 2}`);
const BARRIERS = { native: ['spin', 'blocking', 'std-barrier'], 'wasm-node': ['spin', 'blocking'] };

const BUILD_DIRS = {
  native: join(repoRoot, 'wasm/build/bench-barriers-native'),
  'wasm-node': join(repoRoot, 'wasm/build/bench-barriers-em'),
};
const PROGRAMS = {
  native: [join(BUILD_DIRS.native, 'bench_barriers')],
  'wasm-node': ['node', join(BUILD_DIRS['wasm-node'], 'bench_barriers.js')],
};

const FLAGS = {
  ...roundFlags(TARGETS, GROUPS),
  'min-ms': { type: 'integer', default: 100, min: 10, max: 10_000, help: 'shortest timed run' },
};

/**
 * Ratios of times, above 1 = slower than the reference, taken as the reference's rate over ours
 * (the shared ratio() pairs rates by round; their best_ratio is then our fastest time over the
 * reference's fastest).
 */
function barrierRatios(target, reports) {
  const row = (t, barrier, threads) =>
    reports[t]?.results.find((r) => r.barrier === barrier && r.threads === threads);
  const threads = [...new Set(reports[target].results.map((r) => r.threads))];
  const out = [];
  for (const n of threads)
    for (const b of ['spin', 'blocking']) {
      const mine = row(target, b, n);
      const r =
        target === 'native'
          ? ratio(`${b} / std-barrier time, ${n} threads`, row('native', 'std-barrier', n), mine)
          : ratio(`${b}: wasm / native time, ${n} threads`, row('native', b, n), mine);
      if (r) out.push(r);
    }
  return out;
}

function printBarriers(reports) {
  console.log('\nbarrier round trip, µs per barrier (median [min-max] over rounds)');
  for (const [target, report] of Object.entries(reports))
    for (const r of report.results)
      console.log(
        `  ${target.padEnd(10)} ${r.barrier.padEnd(12)} ${String(r.threads).padStart(2)} threads  ${r.us_per_barrier.toFixed(3).padStart(10)}  [${r.us_per_barrier_min.toFixed(3)}-${r.us_per_barrier_max.toFixed(3)}]`,
      );
  for (const [target, report] of Object.entries(reports))
    console.log(`\n${formatRatios(`ratios of times (${target})`, report.ratios)}`);
}

async function main() {
  const flags = parseFlags('npm run bench:barriers --', FLAGS);
  if (!flags['skip-build'])
    for (const target of flags.targets)
      buildBench({
        dir: BUILD_DIRS[target],
        emscripten: target !== 'native',
        targets: ['bench_barriers'],
      });
  await measure({
    bench: 'barriers',
    allTargets: TARGETS,
    allGroups: GROUPS,
    flags,
    runGroup: async ({ group, target, round }) => {
      const [cmd, ...args] = PROGRAMS[target];
      const order = rotate(BARRIERS[target], round).join(',');
      const run = [...args, '--threads', group, '--order', order];
      return runProgram(cmd, [...run, '--min-ms', String(flags['min-ms'])]).map((s) => ({
        ...s,
        group,
        key: `${s.barrier}-${s.threads}`,
        items: s.barriers,
        items_per_s: s.barriers / s.seconds,
      }));
    },
    summarize: { ranges: ['us_per_barrier'], medians: ['barriers'] },
    extra: (target) => ({
      compiler:
        target === 'native' ? 'g++ (C++20, -O2)' : 'em++ (C++17, -O2, pthreads; no std::barrier)',
      method: `interleaved rounds (bench/lib/rounds.mjs), one group per thread count; targets and barriers in rotated order per round; each sample one timed run of >= ${flags['min-ms']} ms`,
    }),
    ratios: barrierRatios,
    print: printBarriers,
  });
}

runMain('bench:barriers', main);
