// `npm run bench:pipelines`: builds the pipeline bench natively (with oneTBB, its peer), for wasm
// under Node and for wasm in a page, and runs them interleaved (bench/lib/rounds.mjs): per group of compared cases,
// each round runs one process per target back to back, targets and cases in rotating order;
// every timed run lasts at least 100 ms. Each busy-work row records its achieved service time
// (BusyWork::measure_us_per_call() after each run) and its rate at equal work per item. Writes
// bench/results/pipelines-<target>.json (DESIGN.md bench format, plus every printed ratio) and
// prints the ratios. A native report without oneTBB is not written (bench/lib/peers.mjs).
import { join } from 'node:path';
import { repoRoot } from '../../scripts/lib/proc.mjs';
import { parseFlags, runMain } from '../lib/cli.mjs';
import { runInChromium, serveBenchSite } from '../lib/chromium.mjs';
import { buildBench, jsonLines, runProgram } from '../lib/programs.mjs';
import { measure } from '../lib/measure.mjs';
import { roundFlags } from '../lib/rounds.mjs';
import { GROUPS, TARGETS, pipelineRatios, printPipelines } from './report.mjs';

const BUILD_DIRS = {
  native: join(repoRoot, 'wasm/build/p-bench'),
  'wasm-node': join(repoRoot, 'wasm/build/p-bench-em'),
  'wasm-chromium': join(repoRoot, 'wasm/build/p-bench-em'), // the same build, its web program
};
const PROGRAMS = {
  native: [join(BUILD_DIRS.native, 'pipeline_bench')],
  'wasm-node': ['node', join(BUILD_DIRS['wasm-node'], 'pipeline_bench.js')],
};
const BUILD_TARGETS = {
  native: ['pipeline_bench', 'overhead_probe'], // the probe: bench/README.md
  'wasm-node': ['pipeline_bench', 'overhead_probe'],
  'wasm-chromium': ['pipeline_bench_web'],
};
// What a page measures: telemetry's cost (issue 19 item 8: the browser is where the lessons
// record, and its clock is performance.now, not Node's hrtime) and wasm against native at 100 us
// stages. The other groups rank runtimes, which the host does not change; they run natively and
// under Node only, so `npm run bench` stays short.
const CHROMIUM_GROUPS = new Set(['telemetry', 'cross-target-100us']);

const FLAGS = {
  ...roundFlags(TARGETS, GROUPS),
  quick: { type: 'boolean', help: 'shorter runs (~0.12 s instead of ~0.3 s; never under 0.1 s)' },
  targets: { type: 'list', default: TARGETS, allowed: TARGETS, help: 'targets to measure' },
  groups: {
    type: 'list',
    default: [],
    allowed: GROUPS,
    help: 'groups to measure; a partial run merges its rows into the reports',
  },
};

const METHOD =
  'interleaved rounds (bench/lib/rounds.mjs): per group, each round runs one process per target back to back in rotating order, and the cases inside a process in rotating order after a quarter-length warm-up of each; one timed run of at least 100 ms per case and round; rows give the median over the rounds with min and max, rates by round, and ratios pair rounds';
const SERVICE =
  'stage_us_achieved / work_us_per_item_achieved: BusyWork::measure_us_per_call(stage_us) per stage (the fastest of several timings of back-to-back spin_us() calls, the loop every busy stage runs: load only lengthens a timing), taken on the same target right after each timed run, not inside it; items_per_s_corrected = items_per_s × work_us_per_item_achieved / work_us_per_item (the rate had every stage taken its nominal time)';

/** Adds the rate at equal work per item to a busy-work sample. */
function withCorrectedRate(sample) {
  if (sample.work_us_per_item_achieved === undefined) return sample;
  const scale = sample.work_us_per_item_achieved / sample.work_us_per_item;
  return { ...sample, items_per_s_corrected: sample.items_per_s * scale };
}

async function main() {
  const flags = parseFlags('npm run bench:pipelines --', FLAGS);
  if (!flags['skip-build']) {
    for (const target of flags.targets) {
      buildBench({
        dir: BUILD_DIRS[target],
        emscripten: target !== 'native',
        targets: BUILD_TARGETS[target],
        options: ['-DPIPELAB_PIPELINE_BENCH=ON'],
      });
    }
  }
  const site = flags.targets.includes('wasm-chromium')
    ? await serveBenchSite({ name: 'pipelines', emDir: BUILD_DIRS['wasm-chromium'] })
    : undefined;
  const seen = {};
  try {
    await measureAll(flags, site, seen);
  } finally {
    await site?.close();
  }
}

/** One process (or page) of one target on one group: its samples. */
async function runGroup({ group, target, round }, flags, site, seen) {
  const method = ['--target', target, '--group', group, '--rotate', String(round)];
  const args = [...method, ...(flags.quick ? ['--quick'] : [])];
  if (target !== 'wasm-chromium') {
    const [cmd, ...programArgs] = PROGRAMS[target];
    return runProgram(cmd, [...programArgs, ...args]).map(withCorrectedRate);
  }
  if (!CHROMIUM_GROUPS.has(group)) return [];
  const { lines, version } = await runInChromium(site.program('pipeline_bench_web', args));
  seen.chromium = version;
  return jsonLines(lines).map(withCorrectedRate);
}

async function measureAll(flags, site, seen) {
  await measure({
    bench: 'pipelines',
    allTargets: TARGETS,
    allGroups: GROUPS,
    flags,
    runGroup: (job) => runGroup(job, flags, site, seen),
    summarize: {
      medians: [
        'stage_us_achieved',
        'work_us_per_item_achieved',
        'items_per_s_corrected',
        'mean_batch_latency_us',
      ],
      series: { rates: 'items_per_s', rates_corrected: 'items_per_s_corrected' },
    },
    extra: (target) => ({
      compiler_flags:
        target === 'native' ? 'g++ -O2 -DNDEBUG' : 'em++ -O2 -DNDEBUG -pthread -sPROXY_TO_PTHREAD',
      quick: flags.quick,
      method: METHOD,
      achieved_service: SERVICE,
      ...(target === 'wasm-chromium'
        ? { chromium: seen.chromium, groups: [...CHROMIUM_GROUPS].join(', ') }
        : {}),
    }),
    ratios: pipelineRatios,
    print: printPipelines,
  });
}

runMain('bench:pipelines', main);
