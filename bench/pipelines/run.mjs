// `npm run bench:pipelines`: builds the pipeline bench natively (with oneTBB, its peer) and for
// wasm under Node, and runs both interleaved (bench/lib/rounds.mjs): per group of compared cases,
// each round runs one process per target back to back, targets and cases in rotating order;
// every timed run lasts at least 100 ms. Each busy-work row records its achieved service time
// (BusyWork::measure_us_per_call() after each run) and its rate at equal work per item. Writes
// bench/results/pipelines-<target>.json (DESIGN.md bench format, plus every printed ratio) and
// prints the ratios. A native report without oneTBB is not written (bench/lib/peers.mjs).
import { join } from 'node:path';
import { repoRoot } from '../../scripts/lib/proc.mjs';
import { parseFlags, runMain } from '../lib/cli.mjs';
import { buildBench, runProgram } from '../lib/programs.mjs';
import { measure } from '../lib/measure.mjs';
import { roundFlags } from '../lib/rounds.mjs';
import { GROUPS, TARGETS, pipelineRatios, printPipelines } from './report.mjs';

const BUILD_DIRS = {
  native: join(repoRoot, 'wasm/build/p-bench'),
  'wasm-node': join(repoRoot, 'wasm/build/p-bench-em'),
};
const PROGRAMS = {
  native: [join(BUILD_DIRS.native, 'pipeline_bench')],
  'wasm-node': ['node', join(BUILD_DIRS['wasm-node'], 'pipeline_bench.js')],
};

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
      const emscripten = target !== 'native';
      buildBench({
        dir: BUILD_DIRS[target],
        emscripten,
        targets: ['pipeline_bench', 'overhead_probe'], // the probe: bench/README.md
        options: ['-DPIPELAB_PIPELINE_BENCH=ON'],
      });
    }
  }
  await measure({
    bench: 'pipelines',
    allTargets: TARGETS,
    allGroups: GROUPS,
    flags,
    runGroup: async ({ group, target, round }) => {
      const [cmd, ...args] = PROGRAMS[target];
      const method = ['--target', target, '--group', group, '--rotate', String(round)];
      const all = [...args, ...method, ...(flags.quick ? ['--quick'] : [])];
      return runProgram(cmd, all).map(withCorrectedRate);
    },
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
    }),
    ratios: pipelineRatios,
    print: printPipelines,
  });
}

runMain('bench:pipelines', main);
