// `npm run bench:phasers`: seed 003's micro-benchmarks on our phaser streams, natively and in wasm
// under Node — push/pop (one producer, one consumer) non-batched and adaptive-batched beside our
// BatchQueue, and the thread ring's time per hop with batching requested (adaptive) and not
// (bench_phasers.cpp says how each is driven) — written to bench/results/phasers-native.json and
// phasers-wasm-node.json (DESIGN.md: "bench": "phasers", "variant": push-pop|thread-ring, "mode":
// non-batched|adaptive-batched|batch-queue, items_per_s or us_per_hop), with the ratios against
// the paper's targets printed and saved. Method: the shared interleaved rounds (bench/lib/rounds.mjs,
// one group per variant): each round runs one process per target back to back, targets and modes
// in rotating order; every timed run lasts at least --min-ms. A ring row's `items` are hops and
// `items_per_s` hops per second, so the shared rows, ratios and machine block (with the load
// average) apply unchanged; `us_per_hop` is kept with its min and max. No Chromium target: the
// queue bench's page already measures how wasm threads fare in the browser against Node.
// Benchmarks report numbers; they are not tests.
import { join } from 'node:path';
import { repoRoot } from '../../scripts/lib/proc.mjs';
import { parseFlags, runMain } from '../lib/cli.mjs';
import { measure } from '../lib/measure.mjs';
import { buildBench, runProgram } from '../lib/programs.mjs';
import { formatRatios, ratio } from '../lib/ratios.mjs';
import { roundFlags, rotate } from '../lib/rounds.mjs';

const TARGETS = ['native', 'wasm-node'];
const GROUPS = ['push-pop', 'thread-ring'];
const MODES = {
  'push-pop': ['non-batched', 'adaptive-batched', 'batch-queue'],
  'thread-ring': ['non-batched', 'adaptive-batched'],
};

/** What seed 003 measured on its Xeon (M ops/s and µs per hop): the notes beside our ratios. */
const PAPER = { nonBatched: 11.0, adaptive: 148.2, streamIt: 114.0, hopNon: 2.2, hopAdaptive: 2.2 };

const BUILD_DIRS = {
  native: join(repoRoot, 'wasm/build/bench-phasers-native'),
  'wasm-node': join(repoRoot, 'wasm/build/bench-phasers-em'),
};
const PROGRAMS = {
  native: [join(BUILD_DIRS.native, 'bench_phasers')],
  'wasm-node': ['node', join(BUILD_DIRS['wasm-node'], 'bench_phasers.js')],
};

const FLAGS = {
  ...roundFlags(TARGETS, GROUPS),
  'min-ms': { type: 'integer', default: 100, min: 10, max: 10_000, help: 'shortest timed run' },
  batch: {
    type: 'integer',
    default: 4096,
    min: 2,
    max: 4096,
    help: 'elements per phase when batched (the spec allows up to 4096; the paper used 10,000)',
  },
  bound: { type: 'integer', default: 8, min: 1, max: 1024, help: 'phases per stream (paper: 8)' },
  'ring-tasks': { type: 'integer', default: 8, min: 2, max: 16, help: 'tasks in the thread ring' },
};

const fmt = (x) => x.toFixed(x >= 100 ? 0 : x >= 10 ? 1 : 2);

/** The targets' ratios: the two the issue sets goals for, and the ring's cost of batching. */
function phaserRatios(target, reports) {
  const row = (variant, mode) =>
    reports[target]?.results.find((r) => r.variant === variant && r.mode === mode);
  const out = [
    ratio(
      'push-pop: adaptive-batched / non-batched',
      row('push-pop', 'adaptive-batched'),
      row('push-pop', 'non-batched'),
      {
        goal: 10,
        note: `paper (Xeon): ${fmt(PAPER.adaptive / PAPER.nonBatched)}x (${PAPER.adaptive} / ${PAPER.nonBatched} M ops/s)`,
      },
    ),
    ratio(
      'push-pop: adaptive-batched / BatchQueue',
      row('push-pop', 'adaptive-batched'),
      row('push-pop', 'batch-queue'),
      {
        goal: 0.5,
        note: `paper (Xeon), vs StreamIt's batched queue: ${fmt(PAPER.adaptive / PAPER.streamIt)}x`,
      },
    ),
    // Times: the non-batched rate over the adaptive one is the adaptive time per hop over the
    // non-batched one (above 1 = batching requested costs time).
    ratio(
      'thread-ring: adaptive / non-batched time per hop',
      row('thread-ring', 'non-batched'),
      row('thread-ring', 'adaptive-batched'),
      {
        note: `paper (Xeon): ${PAPER.hopAdaptive} / ${PAPER.hopNon} us per hop = ${fmt(PAPER.hopAdaptive / PAPER.hopNon)}`,
      },
    ),
  ];
  return out.filter((r) => r !== null);
}

function printPhasers(reports) {
  console.log('\nphaser streams (median [min-max] over rounds)');
  for (const [target, report] of Object.entries(reports))
    for (const r of report.results) {
      const [value, min, max, unit] =
        r.variant === 'thread-ring'
          ? [r.us_per_hop, r.us_per_hop_min, r.us_per_hop_max, 'µs per hop']
          : [r.items_per_s / 1e6, r.items_per_s_min / 1e6, r.items_per_s_max / 1e6, 'M items/s'];
      console.log(
        `  ${target.padEnd(10)} ${r.variant.padEnd(12)} ${r.mode.padEnd(17)} ${value.toFixed(3).padStart(10)}  [${min.toFixed(3)}-${max.toFixed(3)}] ${unit}`,
      );
    }
  for (const [target, report] of Object.entries(reports))
    console.log(`\n${formatRatios(`ratios (${target})`, report.ratios)}`);
}

async function main() {
  const flags = parseFlags('npm run bench:phasers --', FLAGS);
  if (!flags['skip-build'])
    for (const target of flags.targets)
      buildBench({
        dir: BUILD_DIRS[target],
        emscripten: target !== 'native',
        targets: ['bench_phasers'],
      });
  await measure({
    bench: 'phasers',
    allTargets: TARGETS,
    allGroups: GROUPS,
    flags,
    runGroup: async ({ group, target, round }) => {
      const [cmd, ...args] = PROGRAMS[target];
      const run = [...args, '--variant', group, '--order', rotate(MODES[group], round).join(',')];
      for (const flag of ['min-ms', 'batch', 'bound', 'ring-tasks'])
        run.push(`--${flag}`, String(flags[flag]));
      return runProgram(cmd, run)
        .filter((s) => s.variant)
        .map((s) => ({
          ...s,
          group,
          key: `${s.variant}-${s.mode}`,
          items_per_s: s.items / s.seconds,
        }));
    },
    summarize: { ranges: ['us_per_hop'] },
    extra: (target) => ({
      compiler: target === 'native' ? 'g++ (C++17, -O2)' : 'em++ (C++17, -O2, pthreads)',
      method: `interleaved rounds (bench/lib/rounds.mjs), one group per variant; targets and modes in rotated order per round; each sample one timed run of >= ${flags['min-ms']} ms; push-pop on two plain threads (ParkWait), thread-ring through the phaser runtime on 2 pool threads`,
    }),
    ratios: phaserRatios,
    print: printPhasers,
  });
}

runMain('bench:phasers', main);
