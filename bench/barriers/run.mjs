// `npm run bench:barriers`: barrier round-trip time for 2..cores threads — our spinning and
// blocking barriers (wasm/include/pipelab/sync) natively and in wasm under Node, beside
// std::barrier natively (the peer) — written to bench/results/barriers-native.json and
// barriers-wasm-node.json (DESIGN.md: "bench": "barriers", "barrier": spin|blocking|std-barrier,
// "threads", "us_per_barrier"), with the ratios printed and saved.
// Method: rounds; each round runs both targets (one process each) in an order rotated by the
// round, and inside a process the barriers in an order rotated by the round, so load swings hit
// every contender. Each sample is one timed run of at least --min-ms. A row is the median over the
// rounds with min and max and the per-round values; a ratio is the median of per-round ratios.
// The machine block records the load average at start, end and its highest 1-minute value:
// this machine is shared, and a spinning barrier is as slow as the load makes it.
// Flags: --repeats N (5), --threads 2,3 (2..cores), --min-ms N (100), --skip-wasm, --skip-build.
// Benchmarks report numbers; they are not tests.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : fallback;
};
const cores = os.cpus().length;
const repeats = Number(flag('repeats', '5'));
const minMs = Number(flag('min-ms', '100'));
const threads = flag(
  'threads',
  Array.from({ length: Math.max(1, cores - 1) }, (_, i) => i + 2).join(','),
);
const targets = args.includes('--skip-wasm') ? ['native'] : ['native', 'wasm-node'];
const barriers = ['spin', 'blocking', 'std-barrier'];
if (!(Number.isInteger(repeats) && repeats >= 1 && repeats <= 50))
  throw new Error(`--repeats ${flag('repeats')} is out of range (allowed 1..50)`);
if (!(minMs >= 10 && minMs <= 10_000))
  throw new Error(`--min-ms ${flag('min-ms')} is out of range (allowed 10..10000)`);
const env = { ...process.env, NODE_PATH: process.env.NODE_PATH ?? '/usr/share/nodejs' };
const dirs = {
  native: join(root, 'wasm/build/bench-barriers-native'),
  'wasm-node': join(root, 'wasm/build/bench-barriers-em'),
};

function sh(cmd, cmdArgs) {
  const r = spawnSync(cmd, cmdArgs, { cwd: root, env, encoding: 'utf8', stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`${cmd} ${cmdArgs.join(' ')} failed (exit ${r.status})`);
}

function build(target) {
  const configure = ['-S', 'wasm', '-B', dirs[target], '-G', 'Ninja', '-DCMAKE_BUILD_TYPE=Release'];
  if (target === 'native') sh('cmake', configure);
  else sh('emcmake', ['cmake', ...configure]);
  sh('cmake', ['--build', dirs[target], '--target', 'bench_barriers']);
}

/** One process of `target`: every thread count, the barriers in `order`; its JSON lines. */
function runProcess(target, order) {
  const program = join(dirs[target], target === 'native' ? 'bench_barriers' : 'bench_barriers.js');
  const cmd = target === 'native' ? program : 'node';
  const cmdArgs = [
    ...(target === 'native' ? [] : [program]),
    ...['--threads', threads, '--order', order.join(','), '--min-ms', String(minMs)],
  ];
  const r = spawnSync(cmd, cmdArgs, { cwd: root, env, encoding: 'utf8', maxBuffer: 1 << 24 });
  if (r.status !== 0) throw new Error(`${target}: ${r.stderr || `exit ${r.status}`}`);
  return r.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line));
}

const rotate = (list, k) => list.map((_, i) => list[(i + k) % list.length]);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};
const loadNow = () => os.loadavg().map((x) => Math.round(x * 100) / 100);

function machine(load, target) {
  const highest = Math.max(...load.samples);
  return {
    cpus: cores,
    cpu_model: os.cpus()[0]?.model ?? 'unknown',
    platform: `${os.platform()} ${os.release()}`,
    node: process.version,
    date: new Date().toISOString(),
    loadavg_start: load.start,
    loadavg_end: loadNow(),
    loadavg_1min_max: highest,
    load_note:
      highest > cores
        ? `high: the 1-minute load reached ${highest} on ${cores} CPUs (other work shared the cores; a spinning barrier waits for descheduled partners)`
        : 'at or below the CPU count',
    method: `${repeats} rounds; targets and barriers in rotated order per round; each sample one run of >= ${minMs} ms`,
    compiler:
      target === 'native' ? 'g++ (C++20, -O2)' : 'em++ (C++17, -O2, pthreads; no std::barrier)',
  };
}

function main() {
  if (!args.includes('--skip-build')) for (const t of targets) build(t);
  const load = { start: loadNow(), samples: [os.loadavg()[0]] };
  const samples = [];
  for (let round = 0; round < repeats; round++) {
    for (const target of rotate(targets, round)) {
      const order = rotate(target === 'native' ? barriers : barriers.slice(0, 2), round);
      for (const s of runProcess(target, order)) samples.push({ ...s, target, round });
    }
    load.samples.push(os.loadavg()[0]);
    console.log(`round ${round + 1}/${repeats} done (load ${loadNow().join(' ')})`);
  }
  const reports = {};
  for (const target of targets) {
    const mine = samples.filter((s) => s.target === target);
    const keys = [...new Set(mine.map((s) => `${s.barrier}|${s.threads}`))];
    const results = keys.map((key) => {
      const runs = mine.filter((s) => `${s.barrier}|${s.threads}` === key);
      const us = runs.map((r) => r.us_per_barrier);
      return {
        bench: 'barriers',
        target,
        barrier: runs[0].barrier,
        threads: runs[0].threads,
        us_per_barrier: median(us),
        us_per_barrier_min: Math.min(...us),
        us_per_barrier_max: Math.max(...us),
        rounds: Array.from(
          { length: repeats },
          (_, r) => runs.find((x) => x.round === r)?.us_per_barrier ?? null,
        ),
        barriers: median(runs.map((r) => r.barriers)),
        run_ms_min: Math.min(...runs.map((r) => r.seconds * 1000)),
        repeats: runs.length,
      };
    });
    reports[target] = { machine: machine(load, target), results, ratios: [] };
  }
  // Ratios: times, so above 1 means slower than the reference. Paired by round.
  const row = (target, barrier, t) =>
    reports[target]?.results.find((r) => r.barrier === barrier && r.threads === t);
  const ratio = (name, a, b) => {
    if (!a || !b) return null;
    const pairs = a.rounds
      .map((x, r) => (x != null && b.rounds[r] != null ? x / b.rounds[r] : null))
      .filter((x) => x != null);
    return {
      name,
      of: `${a.target} ${a.barrier} ${a.threads}`,
      over: `${b.target} ${b.barrier} ${b.threads}`,
      ratio: median(pairs),
      ratio_min: Math.min(...pairs),
      ratio_max: Math.max(...pairs),
      pairs: pairs.length,
    };
  };
  for (const t of threads.split(',').map(Number)) {
    for (const b of ['spin', 'blocking']) {
      const vsPeer = ratio(
        `${b} / std-barrier, ${t} threads (native)`,
        row('native', b, t),
        row('native', 'std-barrier', t),
      );
      if (vsPeer) reports.native.ratios.push(vsPeer);
      const cross = ratio(
        `${b}: wasm / native, ${t} threads`,
        row('wasm-node', b, t),
        row('native', b, t),
      );
      if (cross) reports['wasm-node'].ratios.push(cross);
    }
  }
  mkdirSync(join(root, 'bench', 'results'), { recursive: true });
  for (const target of targets) {
    const file = join(root, 'bench', 'results', `barriers-${target}.json`);
    writeFileSync(file, `${JSON.stringify(reports[target], null, 2)}\n`);
    console.log(`wrote ${file}`);
  }
  console.log('\nbarrier round trip, µs per barrier (median [min-max] over rounds)');
  for (const target of targets)
    for (const r of reports[target].results)
      console.log(
        `  ${target.padEnd(10)} ${r.barrier.padEnd(12)} ${String(r.threads).padStart(2)} threads  ${r.us_per_barrier.toFixed(3).padStart(10)}  [${r.us_per_barrier_min.toFixed(3)}-${r.us_per_barrier_max.toFixed(3)}]`,
      );
  console.log('\nratios of times (median of per-round ratios [min-max])');
  for (const target of targets)
    for (const r of reports[target].ratios)
      console.log(
        `  ${r.name.padEnd(44)} ${r.ratio.toFixed(3).padStart(9)}  [${r.ratio_min.toFixed(3)}-${r.ratio_max.toFixed(3)}]`,
      );
  console.log(
    `\nload average: start ${load.start.join(' ')}, end ${loadNow().join(' ')} on ${cores} CPUs`,
  );
}

main();
