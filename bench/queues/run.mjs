// npm run bench:queues — builds the queue benchmark (native, wasm for Node, wasm for the web), runs
// it as 5 processes per target (native, wasm under Node, wasm in headless Chromium, plus ringbuf.js
// between two workers in Node and in Chromium), writes bench/results/queues-<target>.json with the
// median and min-max per measurement, and prints the table of ratios the queues issue asks for.
//   options: --repeats N (5)  --seconds S (0.1 per timed run)  --targets native,wasm-node,wasm-chromium
//            --skip-build
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runInChromium, startServer } from './chromium.mjs';
import { loadReports, printTable } from './report.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const nativeDir = join(root, 'wasm/build/bench-queues-native');
const emDir = join(root, 'wasm/build/bench-queues-em');
const RINGBUF_BATCHES = [1, 512]; // one item per call, and whole batches of BatchQueue's semi-buffer

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const repeats = Number(option('repeats', 5));
const seconds = option('seconds', '0.1');
const targets = option('targets', 'native,wasm-node,wasm-chromium').split(',');
const env = { ...process.env, NODE_PATH: process.env.NODE_PATH ?? '/usr/share/nodejs' };

function sh(command, commandArgs, options = {}) {
  return execFileSync(command, commandArgs, {
    cwd: root,
    env,
    encoding: 'utf8',
    maxBuffer: 1 << 26,
    ...options,
  });
}
const version = (command, flag = '--version') => {
  try {
    return sh(command, [flag]).split('\n')[0].trim();
  } catch {
    return 'unavailable';
  }
};

function build() {
  console.log('building the queue benchmark (native, wasm node, wasm web)...');
  sh('cmake', ['-S', 'wasm', '-B', nativeDir, '-G', 'Ninja', '-DCMAKE_BUILD_TYPE=Release'], {
    stdio: 'ignore',
  });
  sh('cmake', ['--build', nativeDir, '--target', 'bench_queues'], { stdio: 'inherit' });
  if (targets.some((t) => t.startsWith('wasm'))) {
    sh(
      'emcmake',
      ['cmake', '-S', 'wasm', '-B', emDir, '-G', 'Ninja', '-DCMAKE_BUILD_TYPE=Release'],
      { stdio: 'ignore' },
    );
    sh('cmake', ['--build', emDir, '--target', 'bench_queues', 'bench_queues_web'], {
      stdio: 'inherit',
    });
  }
}

const parseLines = (text) =>
  (Array.isArray(text) ? text : text.split('\n'))
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line))
    .filter((row) => row.queue);

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

// One row per measurement: median over the processes, with min and max.
function aggregate(target, processes) {
  const groups = new Map();
  for (const rows of processes) {
    for (const row of rows) {
      const key = [row.queue, row.variant, row.stages, row.capacity, row.batch].join('|');
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(row);
    }
  }
  return [...groups.values()].map((rows) => {
    const first = rows[0];
    const result = {
      bench: 'queues',
      target,
      queue: first.queue,
      variant: first.variant,
      threads: first.threads,
      stages: first.stages,
      batch: first.batch,
      capacity: first.capacity,
      items: Math.round(median(rows.map((r) => r.items))),
      items_per_s: median(rows.map((r) => r.items_per_s)),
      items_per_s_min: Math.min(...rows.map((r) => r.items_per_s)),
      items_per_s_max: Math.max(...rows.map((r) => r.items_per_s)),
      repeats: rows.length,
      warmup: true,
    };
    if (first.bytes_per_s !== undefined)
      result.bytes_per_s = median(rows.map((r) => r.bytes_per_s));
    if (first.latency_ns_median !== undefined) {
      result.latency_ns_median = median(rows.map((r) => r.latency_ns_median));
      result.latency_ns_median_min = Math.min(...rows.map((r) => r.latency_ns_median));
      result.latency_ns_median_max = Math.max(...rows.map((r) => r.latency_ns_median));
      result.latency_ns_p99 = median(rows.map((r) => r.latency_ns_p99));
      result.offered_items_per_s = first.items_per_s;
    }
    return result;
  });
}

function machine(extra) {
  return {
    cpus: os.cpus().length,
    cpu_model: os.cpus()[0]?.model,
    platform: `${os.platform()} ${os.release()}`,
    node: process.version,
    gxx: version('g++'),
    emxx: version('em++'),
    date: new Date().toISOString(),
    item_bytes: 8,
    note: 'shared 2-core machine (see loadavg); per process and measurement: in-process warm-up that also sizes the run, then the best of 3 timed runs; results give the median over processes with min-max',
    ...extra,
  };
}

function write(target, results, extra) {
  const file = join(root, 'bench/results', `queues-${target}.json`);
  const report = { machine: { ...machine(extra), loadavg_end: os.loadavg() }, results };
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`wrote ${file} (${results.length} results)`);
  return report;
}

async function main() {
  if (!args.includes('--skip-build')) build();
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  const reports = {};
  const benchArgs = ['--seconds', seconds];
  if (targets.includes('native')) {
    const loadavg_start = os.loadavg();
    const processes = [];
    for (let i = 0; i < repeats; ++i) {
      console.log(`native process ${i + 1}/${repeats}`);
      processes.push(parseLines(sh(join(nativeDir, 'bench_queues'), benchArgs)));
    }
    reports.native = write('native', aggregate('native', processes), {
      compiler_flags: '-O3 -DNDEBUG',
      loadavg_start,
    });
  }
  if (targets.includes('wasm-node')) {
    const loadavg_start = os.loadavg();
    const processes = [];
    for (let i = 0; i < repeats; ++i) {
      console.log(`wasm-node process ${i + 1}/${repeats}`);
      const cpp = parseLines(sh('node', [join(emDir, 'bench_queues.js'), ...benchArgs]));
      const ringbuf = parseLines(
        sh('node', [join(here, 'ringbuf-node.mjs'), ...RINGBUF_BATCHES.map(String)]),
      );
      processes.push([...cpp, ...ringbuf]);
    }
    reports['wasm-node'] = write('wasm-node', aggregate('wasm-node', processes), {
      compiler_flags: 'em++ -O3 -DNDEBUG -pthread -sPROXY_TO_PTHREAD',
      loadavg_start,
    });
  }
  if (targets.includes('wasm-chromium')) {
    const loadavg_start = os.loadavg();
    const { server, origin } = await startServer({
      '/page': join(here, 'page'),
      '/bench/queues': here,
      '/wasm': emDir,
      '/vendor/ringbuf.mjs': join(root, 'node_modules/ringbuf.js/dist/index.mjs'),
    });
    const processes = [];
    let browser = 'unknown';
    try {
      for (let i = 0; i < repeats; ++i) {
        console.log(`wasm-chromium process ${i + 1}/${repeats}`);
        const cpp = await runInChromium(`${origin}/page/index.html?mode=wasm&seconds=${seconds}`);
        const batches = RINGBUF_BATCHES.map((b) => `batch=${b}`).join('&');
        const ringbuf = await runInChromium(
          `${origin}/page/index.html?mode=ringbuf&${batches}&seconds=${seconds}`,
        );
        browser = cpp.version;
        // Latency rows are dropped: each Worker's performance.now() has its own time origin, so a
        // timestamp taken by the producer thread means nothing to the consumer thread.
        const throughput = parseLines(cpp.lines).filter((row) => row.variant !== 'latency');
        processes.push([...throughput, ...parseLines(ringbuf.lines)]);
      }
    } finally {
      server.close();
    }
    reports['wasm-chromium'] = write('wasm-chromium', aggregate('wasm-chromium', processes), {
      chromium: browser,
      compiler_flags: 'em++ -O3 -DNDEBUG -pthread -sPROXY_TO_PTHREAD',
      latency: 'not measured: Worker clocks have different time origins',
      loadavg_start,
    });
  }
  printTable({ ...loadReports(root), ...reports });
}

await main();
