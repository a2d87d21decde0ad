// `npm run bench`: set up what is missing, then run every benchmark (queues, pipelines, model, UI);
// each writes its JSON report under bench/results/. Benchmarks report numbers; they are not tests.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { bootstrap } from './bootstrap.mjs';
import { repoRoot, run } from './lib/proc.mjs';

const BENCHES = [
  ['bench:queues', 'bench/queues/run.mjs'],
  ['bench:pipelines', 'bench/pipelines/run.mjs'],
  ['bench:model', 'bench/model/run.ts'],
  ['bench:ui', 'bench/ui/run.mjs'],
];

try {
  bootstrap('bench');
  for (const [script, driver] of BENCHES) {
    if (!existsSync(join(repoRoot, driver))) {
      console.log(`\n(${script}: ${driver} does not exist yet — skipped)`);
      continue;
    }
    console.log(`\n=== npm run ${script} ===`);
    run('npm', ['run', script]);
  }
} catch (e) {
  console.error(`\n${e.message}`);
  process.exit(1);
}
