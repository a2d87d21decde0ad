// Builds the C++ core with CMake + Ninja: the native and TSan test builds, the Emscripten builds
// (threaded web + Node modules and wasm test runners; the single-threaded web fallback), and
// publishes the web modules into public/wasm/<content-hash>/ for Vite. Ninja rebuilds only what changed.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { emscriptenEnv } from '../bootstrap.mjs';
import { repoRoot, run, runAsync, runCapturedAsync } from './proc.mjs';

export const BUILD_DIRS = {
  native: join(repoRoot, 'wasm/build/native'),
  tsan: join(repoRoot, 'wasm/build/tsan'),
  em: join(repoRoot, 'wasm/build/em'),
  emSt: join(repoRoot, 'wasm/build/em-st'),
};

const CONFIGURE_ARGS = {
  native: [],
  tsan: ['-DPIPELAB_TSAN=ON'],
  em: [],
  emSt: ['-DPIPELAB_WASM_SINGLE_THREADED=ON'],
};

/** The commands that configure (once) and build one of BUILD_DIRS: everything, or only the
 * given targets. Each is [command, args, options]. */
function buildSteps(kind, targets) {
  const dir = BUILD_DIRS[kind];
  const emscripten = kind === 'em' || kind === 'emSt';
  const env = emscripten ? emscriptenEnv() : process.env;
  const steps = [];
  if (!existsSync(join(dir, 'build.ninja'))) {
    const configure = ['cmake', '-S', 'wasm', '-B', dir, '-G', 'Ninja', ...CONFIGURE_ARGS[kind]];
    steps.push(
      emscripten ? ['emcmake', configure, { env }] : ['cmake', configure.slice(1), { env }],
    );
  }
  const build = ['--build', dir, ...(targets.length ? ['--target', ...targets] : [])];
  steps.push(['cmake', build, { env }]);
  return steps;
}

/** Configures (once) and builds one of BUILD_DIRS: everything, or only the given targets. */
export function buildCore(kind, targets = []) {
  for (const [cmd, args, options] of buildSteps(kind, targets)) run(cmd, args, options);
}

/** buildCore without blocking, its output shown as it comes (so only one build at a time should
 * use it; see buildWebModules), or, with `quiet`, held and printed whole when it is done. */
export async function buildCoreAsync(kind, targets = [], { quiet = false } = {}) {
  for (const [cmd, args, options] of buildSteps(kind, targets)) {
    if (!quiet) {
      await runAsync(cmd, args, options);
      continue;
    }
    const { status, output } = await runCapturedAsync(cmd, args, options);
    process.stdout.write(output);
    if (status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${status})`);
  }
}

/** Where the Node threaded module lives (loaded by tests/wasm). */
export const nodeModulePath = join(BUILD_DIRS.em, 'node', 'pipelab-node-mt.js');

/**
 * Copies the web modules into public/wasm/<hash>/ (a new folder whenever their bytes change, so a
 * browser never mixes an old .wasm with a new glue) and records the folder in public/wasm/current.json.
 */
export function publishWebModules() {
  const files = [
    join(BUILD_DIRS.em, 'web', 'pipelab-web-mt.js'),
    join(BUILD_DIRS.em, 'web', 'pipelab-web-mt.wasm'),
    join(BUILD_DIRS.em, 'web', 'pipelab-web-mt.worker.js'),
    join(BUILD_DIRS.emSt, 'web', 'pipelab-web-st.js'),
    join(BUILD_DIRS.emSt, 'web', 'pipelab-web-st.wasm'),
  ];
  const hash = createHash('sha256');
  for (const f of files) hash.update(readFileSync(f));
  const version = hash.digest('hex').slice(0, 12);
  const publicWasm = join(repoRoot, 'public', 'wasm');
  const target = join(publicWasm, version);
  if (!existsSync(target)) {
    rmSync(publicWasm, { recursive: true, force: true });
    mkdirSync(target, { recursive: true });
    for (const f of files) copyFileSync(f, join(target, f.split('/').pop()));
  }
  writeFileSync(join(publicWasm, 'current.json'), JSON.stringify({ dir: version }) + '\n');
  return version;
}

/** The app's modules (what `npm start` and `npm run build` need), plus any other targets of the
 * threaded Emscripten tree (`emTargets`), then published. The single-threaded tree builds beside
 * the threaded one: alone, its one big compile and its link left a core idle for 17 s. */
export async function buildWebModules(emTargets = []) {
  const builds = await Promise.allSettled([
    buildCoreAsync('emSt', [], { quiet: true }),
    buildCoreAsync('em', ['pipelab-web-mt', 'pipelab-node-mt', ...emTargets]),
  ]);
  const failed = builds.filter((b) => b.status === 'rejected').map((b) => b.reason.message);
  if (failed.length) throw new Error(failed.join('\n'));
  return publishWebModules();
}
