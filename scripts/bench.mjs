// `npm run bench`: every benchmark (queues, pipelines, barriers, phasers, model, UI, page load);
// `npm run bench:<name> -- [flags]` (node scripts/bench.mjs <name> [flags]): one of them, with its
// driver's flags. Each first sets
// up what it needs through the bootstrap (NEEDS['bench:<name>']: the build tools, Chromium, and
// the peers it measures), so every command works on a fresh clone on its own. Each driver writes
// its JSON report under bench/results/. Benchmarks report numbers; they are not tests.
import { bootstrap } from './bootstrap.mjs';
import { run } from './lib/proc.mjs';

/** name → the command that runs its driver (tsx for the TypeScript one). */
const DRIVERS = {
  queues: ['node', ['bench/queues/run.mjs']],
  pipelines: ['node', ['bench/pipelines/run.mjs']],
  barriers: ['node', ['bench/barriers/run.mjs']],
  phasers: ['node', ['bench/phasers/run.mjs']],
  model: ['npx', ['tsx', 'bench/model/run.ts']],
  ui: ['node', ['bench/ui/run.mjs']],
  load: ['node', ['bench/load/run.mjs']],
};

const [name, ...flags] = process.argv.slice(2);
try {
  if (name !== undefined && !(name in DRIVERS))
    throw new Error(
      `npm run bench: unknown benchmark '${name}' (allowed: ${Object.keys(DRIVERS).join(', ')}; ` +
        'flags go to one benchmark: npm run bench:<name> -- --flag)',
    );
  const names = name === undefined ? Object.keys(DRIVERS) : [name];
  bootstrap(name === undefined ? 'bench' : `bench:${name}`);
  for (const bench of names) {
    const [cmd, args] = DRIVERS[bench];
    console.log(`\n=== bench:${bench} ===`);
    run(cmd, [...args, ...flags]);
  }
} catch (e) {
  console.error(`\n${e.message}`);
  process.exit(1);
}
