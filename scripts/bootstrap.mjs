// Makes this machine ready for a command: checks every tool it needs and installs what is missing
// (Debian packages with apt-get when root on Debian; node packages with `npm ci` from the lockfile).
// Where it cannot install (not Debian, not root), it stops with one message listing what to install.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { repoRoot, run, runAsync } from './lib/proc.mjs';

const onPath = (cmd) =>
  (process.env.PATH ?? '').split(delimiter).some((dir) => dir && existsSync(join(dir, cmd)));

/** Every tool a command may need: how to tell it is present, and where it comes from. */
const TOOLS = {
  cmake: { present: () => onPath('cmake'), deb: 'cmake', other: 'CMake ≥ 3.20' },
  ninja: { present: () => onPath('ninja'), deb: 'ninja-build', other: 'Ninja' },
  cxx: { present: () => onPath('g++'), deb: 'g++', other: 'a C++17 compiler (g++ or clang++)' },
  emscripten: {
    present: () => onPath('em++'),
    deb: 'emscripten',
    other: 'the Emscripten SDK (emsdk; on macOS and Windows: install emsdk and activate it)',
  },
  chromium: {
    present: () => existsSync(chromiumPath()),
    deb: 'chromium',
    other: 'Chromium (or set PIPELAB_CHROMIUM to a Chromium/Chrome executable)',
  },
  googletest: {
    present: () =>
      existsSync('/usr/src/googletest/CMakeLists.txt') &&
      existsSync('/usr/lib/x86_64-linux-gnu/cmake/GTest/GTestConfig.cmake'),
    deb: 'googletest libgtest-dev',
    other: 'GoogleTest (sources in /usr/src/googletest and an installed GTest CMake package)',
  },
  clangFormat: {
    present: () => onPath('clang-format'),
    deb: 'clang-format',
    other: 'clang-format',
  },
  tbb: {
    present: () => existsSync('/usr/include/oneapi/tbb.h'),
    deb: 'libtbb-dev',
    other: 'oneTBB',
  },
  boost: {
    present: () => existsSync('/usr/include/boost/lockfree/spsc_queue.hpp'),
    deb: 'libboost-dev',
    other: 'Boost (lockfree)',
  },
  moodycamel: {
    present: () =>
      existsSync('/usr/include/readerwriterqueue/readerwriterqueue.h') &&
      existsSync('/usr/include/concurrentqueue/concurrentqueue.h'),
    deb: 'libreaderwriterqueue-dev libconcurrentqueue-dev',
    other: 'moodycamel ReaderWriterQueue and ConcurrentQueue headers',
  },
};

const BUILD = ['cmake', 'ninja', 'cxx', 'emscripten'];
/** The benchmarks' needs: each builds its C++ natively and for wasm, and measures its peers. */
const BENCH_NEEDS = {
  'bench:queues': [...BUILD, 'chromium', 'boost', 'moodycamel'],
  'bench:pipelines': [...BUILD, 'chromium', 'tbb'],
  'bench:barriers': BUILD,
  'bench:phasers': BUILD,
  'bench:model': [],
  'bench:ui': [...BUILD, 'chromium'],
  'bench:load': [...BUILD, 'chromium'],
};

/** What each command needs (`bench` runs every benchmark). */
export const NEEDS = {
  start: BUILD,
  build: BUILD,
  test: Object.keys(TOOLS),
  bench: [...new Set(Object.values(BENCH_NEEDS).flat())],
  ...BENCH_NEEDS,
};

/** Where a tool comes from, for messages: `oneTBB (Debian package: libtbb-dev)`. */
export function toolSource(name) {
  return `${TOOLS[name].other} (Debian package: ${TOOLS[name].deb})`;
}

export function chromiumPath() {
  return process.env.PIPELAB_CHROMIUM || '/usr/bin/chromium';
}

/**
 * Decides what to do about missing tools: install the Debian packages (Debian and root), or stop
 * with one message listing what to install. Pure, so the decision is tested without a machine.
 * @param {string[]} missing  keys of TOOLS that are not present
 * @param {{isDebian: boolean, isRoot: boolean}} machine
 * @returns {{install: string[]} | {error: string}}
 */
export function planTools(missing, machine) {
  if (missing.length === 0) return { install: [] };
  if (machine.isDebian && machine.isRoot)
    return { install: [...new Set(missing.flatMap((name) => TOOLS[name].deb.split(' ')))] };
  const why = !machine.isDebian ? 'this is not a Debian system' : 'this process is not root';
  const lines = missing.map((name) => `  - ${toolSource(name)}`);
  return {
    error:
      `PipeLab cannot continue: tools are missing and it cannot install them itself (${why}).\n` +
      `Please install:\n${lines.join('\n')}`,
  };
}

function thisMachine() {
  return {
    isDebian: existsSync('/etc/debian_version') && onPath('apt-get'),
    isRoot: typeof process.getuid === 'function' && process.getuid() === 0,
  };
}

function ensureTools(names) {
  const missing = names.filter((name) => !TOOLS[name].present());
  const plan = planTools(missing, thisMachine());
  if ('error' in plan) throw new Error(plan.error);
  if (plan.install.length === 0) return;
  console.log(`[bootstrap] installing Debian packages: ${plan.install.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get', ['update'], { env });
  run('apt-get', ['install', '-y', '--no-install-recommends', ...plan.install], { env });
  const still = missing.filter((name) => !TOOLS[name].present());
  if (still.length) {
    const again = planTools(still, { isDebian: false, isRoot: false });
    throw new Error(`apt-get finished but tools are still missing.\n${again.error}`);
  }
}

/** Runs `npm ci` when node_modules is missing or was installed from another lockfile; with
 * `background`, returns a promise of it instead of waiting (undefined when nothing was missing). */
function ensureNodeModules(background = false) {
  const lock = readFileSync(join(repoRoot, 'package-lock.json'));
  const hash = createHash('sha256').update(lock).digest('hex');
  const stamp = join(repoRoot, 'node_modules', '.pipelab-lock-sha256');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === hash) return undefined;
  console.log('[bootstrap] installing node packages (npm ci)');
  const args = ['ci', '--no-audit', '--no-fund'];
  if (!background) {
    run('npm', args, { cwd: repoRoot });
    writeFileSync(stamp, hash);
    return undefined;
  }
  return runAsync('npm', args, { cwd: repoRoot }).then(() => writeFileSync(stamp, hash));
}

function ensureNode() {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 20) throw new Error(`PipeLab needs Node.js ≥ 20; this is ${process.versions.node}.`);
}

/** Debian's em++ 3.1.6 runs its JS optimizer with Node and needs Debian's node modules on NODE_PATH. */
export function emscriptenEnv() {
  const env = { ...process.env };
  if (existsSync('/usr/share/nodejs') && !(env.NODE_PATH ?? '').includes('/usr/share/nodejs')) {
    env.NODE_PATH = ['/usr/share/nodejs', env.NODE_PATH].filter(Boolean).join(delimiter);
  }
  return env;
}

/** Checks and installs what `command` needs. With `nodeModulesInBackground`, returns a promise
 * that the node packages are installed, and the caller may build meanwhile (npm test does). */
export function bootstrap(command, { nodeModulesInBackground = false } = {}) {
  ensureNode();
  ensureTools(NEEDS[command]);
  return Promise.resolve(ensureNodeModules(nodeModulesInBackground));
}
