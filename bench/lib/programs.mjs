// Building and running the C++ benchmark programs: a Release build in its own folder (native, or
// Emscripten with Debian's em++ and its NODE_PATH), and one run of a program whose JSON lines on
// stdout are its samples (stderr passes through: progress and errors).
import { spawnSync } from 'node:child_process';
import { emscriptenEnv } from '../../scripts/bootstrap.mjs';
import { repoRoot, run } from '../../scripts/lib/proc.mjs';

/**
 * Configures (every time: cheap, and picks up new options) and builds targets in `dir`.
 * @param {{dir: string, emscripten: boolean, targets: string[], options?: string[]}} build
 */
export function buildBench({ dir, emscripten, targets, options = [] }) {
  const env = emscripten ? emscriptenEnv() : process.env;
  const configure = ['-S', 'wasm', '-B', dir, '-G', 'Ninja', '-DCMAKE_BUILD_TYPE=Release'];
  if (emscripten) run('emcmake', ['cmake', ...configure, ...options], { env });
  else run('cmake', [...configure, ...options], { env });
  run('cmake', ['--build', dir, '--target', ...targets], { env });
}

/** The objects a program printed one per line (lines not starting with `{` are skipped). */
export function jsonLines(lines) {
  return (Array.isArray(lines) ? lines : lines.split('\n'))
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line));
}

/** Runs a program to completion and returns the JSON lines it printed; throws naming it if it fails. */
export function runProgram(cmd, args) {
  const r = spawnSync(cmd, args, {
    cwd: repoRoot,
    env: emscriptenEnv(),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (r.error) throw new Error(`could not run ${cmd}: ${r.error.message}`);
  if (r.status !== 0)
    throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status ?? r.signal})`);
  return jsonLines(r.stdout);
}
