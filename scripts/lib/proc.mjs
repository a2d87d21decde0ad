// Child processes for the scripts: run a command with inherited output and fail loudly, naming it.
import { spawn, spawnSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Runs a command to completion with inherited stdio; throws naming the command if it fails. */
export function run(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: repoRoot, ...options });
  if (r.error) throw new Error(`could not run ${cmd}: ${r.error.message}`);
  if (r.status !== 0)
    throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status ?? r.signal})`);
}

/** run() without blocking: resolves when the command exits 0, rejects naming it otherwise. */
export function runAsync(cmd, args, options = {}) {
  return new Promise((done, fail) => {
    const child = spawn(cmd, args, { stdio: 'inherit', cwd: repoRoot, ...options });
    child.on('error', (e) => fail(new Error(`could not run ${cmd}: ${e.message}`)));
    child.on('close', (status, signal) =>
      status === 0
        ? done()
        : fail(new Error(`${cmd} ${args.join(' ')} failed (exit ${status ?? signal})`)),
    );
  });
}

/** Runs a command and returns {status, output} with stdout+stderr captured and echoed. */
export function runCaptured(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, {
    cwd: repoRoot,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    ...options,
  });
  const output = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  if (options.echo !== false) process.stdout.write(output);
  return { status: r.error ? -1 : r.status, output, error: r.error };
}

/** runCaptured without blocking: resolves to {status, output} once the command exits; echoes
 * nothing (the caller prints each output whole, so commands run side by side do not interleave). */
export function runCapturedAsync(cmd, args, options = {}) {
  return new Promise((done) => {
    const child = spawn(cmd, args, { cwd: repoRoot, ...options });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', (error) =>
      done({ status: -1, output: `${output}${error.message}\n`, error }),
    );
    child.on('close', (status) => done({ status, output }));
  });
}
