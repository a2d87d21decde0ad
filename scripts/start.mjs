// `npm start`: set up what is missing, build the wasm modules (Ninja rebuilds only what changed),
// then serve the app with COOP/COEP on http://localhost:5173 and print the URL.
import { spawn } from 'node:child_process';
import { bootstrap } from './bootstrap.mjs';
import { repoRoot } from './lib/proc.mjs';
import { buildWebModules } from './lib/wasm.mjs';

try {
  bootstrap('start');
  buildWebModules();
} catch (e) {
  console.error(`\n${e.message}`);
  process.exit(1);
}

const vite = spawn('npx', ['vite', '--port', '5173', '--strictPort'], {
  cwd: repoRoot,
  stdio: 'inherit',
});
console.log('\nPipeLab: open http://localhost:5173/ (cross-origin isolated: real threads)\n');
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => vite.kill(signal));
vite.on('exit', (code) => process.exit(code ?? 0));
