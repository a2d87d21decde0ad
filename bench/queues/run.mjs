// `npm run bench:queues`: builds the queue benchmark (native, wasm for Node, wasm for the web) and
// measures every queue and peer (moodycamel, boost, ringbuf.js) natively, in wasm under Node and
// in wasm in headless Chromium, interleaved (bench/lib/rounds.mjs): per group of compared queues,
// each round runs one process per target back to back, targets and queues in rotating order;
// every timed run lasts at least 100 ms. Writes bench/results/queues-<target>.json (median with
// min and max over the rounds, the per-round rates, and every printed ratio) and prints the ratios.
// A report whose peers are missing is not written (bench/lib/peers.mjs).
import { join } from 'node:path';
import { repoRoot } from '../../scripts/lib/proc.mjs';
import { parseFlags, runMain } from '../lib/cli.mjs';
import { buildBench, jsonLines, runProgram } from '../lib/programs.mjs';
import { measure } from '../lib/measure.mjs';
import { rotate, roundFlags } from '../lib/rounds.mjs';
import { runInChromium, serveBenchSite } from '../lib/chromium.mjs';
import { GROUPS, TARGETS, printQueues, queueRatios } from './report.mjs';

const nativeDir = join(repoRoot, 'wasm/build/bench-queues-native');
const emDir = join(repoRoot, 'wasm/build/bench-queues-em');
const ringbufNode = join(repoRoot, 'bench/queues/ringbuf-node.mjs');
const RINGBUF_BATCHES = [1, 512]; // one item per call, and whole batches of BatchQueue's semi-buffer

const FLAGS = {
  ...roundFlags(TARGETS, GROUPS),
  seconds: {
    type: 'number',
    default: 0.15,
    min: 0.1,
    max: 10,
    help: 'target length of a timed run, s (runs under 0.1 s are redone longer)',
  },
};

const METHOD =
  'interleaved rounds (bench/lib/rounds.mjs): per group, each round runs one process per target back to back in rotating order, and the queues inside a process in rotating order; per queue a warm-up run and a sizing run, then one timed run of at least 100 ms per round; rows give the median over the rounds with min and max, rates by round, and ratios pair rounds';

const COMPILERS = {
  native: 'g++ -O3 -DNDEBUG',
  wasm: 'em++ -O3 -DNDEBUG -pthread -sPROXY_TO_PTHREAD',
};

function build(targets) {
  buildBench({ dir: nativeDir, emscripten: false, targets: ['bench_queues'] });
  if (targets.some((t) => t.startsWith('wasm')))
    buildBench({ dir: emDir, emscripten: true, targets: ['bench_queues', 'bench_queues_web'] });
}

/** One process per part (the C++ bench; ringbuf.js in comm-2), the parts in rotating order. */
async function runGroup({ group, target, round }, flags, site, seen) {
  const method = ['--rotate', String(round), '--seconds', String(flags.seconds)];
  const cpp = ['--group', group, ...method];
  const ringbufHere = group === 'comm-2' && target !== 'native';
  const parts = [];
  if (target === 'native') parts.push(() => runProgram(join(nativeDir, 'bench_queues'), cpp));
  if (target === 'wasm-node') {
    parts.push(() => runProgram('node', [join(emDir, 'bench_queues.js'), ...cpp]));
    if (ringbufHere) {
      const batches = RINGBUF_BATCHES.flatMap((b) => ['--batch', String(b)]);
      parts.push(() => runProgram('node', [ringbufNode, ...method, ...batches]));
    }
  }
  // Latency is not measured in Chromium: each Worker's performance.now() has its own time origin,
  // so a timestamp taken by the producer thread means nothing to the consumer thread.
  if (target === 'wasm-chromium' && group !== 'latency') {
    const page = async (url) => {
      const { lines, version } = await runInChromium(url);
      seen.chromium = version;
      return jsonLines(lines);
    };
    parts.push(() => page(site.program('bench_queues_web', cpp)));
    if (ringbufHere) {
      const batches = RINGBUF_BATCHES.map((b) => `batch=${b}`).join('&');
      const query = `rotate=${round}&seconds=${flags.seconds}`;
      parts.push(() => page(`${site.url}bench/queues/page/index.html?${batches}&${query}`));
    }
  }
  const samples = [];
  for (const part of rotate(parts, round)) samples.push(...(await part()));
  return samples.filter((sample) => sample.key);
}

async function main() {
  const flags = parseFlags('npm run bench:queues --', FLAGS);
  if (!flags['skip-build']) build(flags.targets);
  const site = flags.targets.includes('wasm-chromium')
    ? await serveBenchSite({
        name: 'queues',
        emDir,
        vendor: { 'ringbuf.mjs': 'node_modules/ringbuf.js/dist/index.mjs' },
      })
    : undefined;
  const seen = {};
  try {
    await measure({
      bench: 'queues',
      allTargets: TARGETS,
      allGroups: GROUPS,
      flags,
      runGroup: (job) => runGroup(job, flags, site, seen),
      summarize: {
        medians: [
          'bytes_per_s',
          'latency_ns_p99',
          'offered_items_per_s',
          'producer_waits_per_item',
          'consumer_waits_per_item',
        ],
        ranges: ['latency_ns_median'],
      },
      extra: (target) => ({
        item_bytes: 8,
        compiler_flags: target === 'native' ? COMPILERS.native : COMPILERS.wasm,
        method: METHOD,
        ...(target === 'wasm-chromium'
          ? {
              chromium: seen.chromium,
              latency: 'not measured: Worker clocks have different time origins',
            }
          : {}),
      }),
      ratios: queueRatios,
      print: printQueues,
    });
  } finally {
    await site?.close();
  }
}

runMain('bench:queues', main);
