// `npm run build`: set up what is missing, build the wasm modules, then the static site in dist/.
import { bootstrap } from './bootstrap.mjs';
import { run } from './lib/proc.mjs';
import { buildWebModules } from './lib/wasm.mjs';

try {
  bootstrap('build');
  await buildWebModules();
  run('npx', ['vite', 'build']);
} catch (e) {
  console.error(`\n${e.message}`);
  process.exit(1);
}
