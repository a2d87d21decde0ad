// The machine block of every benchmark report, built in one place: CPU count (`cpus`), model,
// memory, platform, Node, date, the code measured (commit, and whether the work tree differed),
// and the load average at the start and end of the run and its highest 1-minute value, sampled
// between rounds. This machine has 2 noisy cores shared with
// other work, so a report must say how busy the machine was while it ran.
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { repoRoot } from '../../scripts/lib/proc.mjs';

const round2 = (x) => Math.round(x * 100) / 100;
const loadNow = () => os.loadavg().map(round2);

/** Samples the load average; `block()` returns the load fields of the machine block. */
export function loadTracker() {
  const start = loadNow();
  let highest = start[0];
  return {
    sample() {
      highest = Math.max(highest, os.loadavg()[0]);
    },
    block() {
      const end = loadNow();
      return {
        loadavg_start: start,
        loadavg_end: end,
        loadavg_1min_max: round2(Math.max(highest, end[0])),
      };
    },
  };
}

/** The commit measured, with `+changes` when tracked files differ from it ('unknown' outside git). */
function codeVersion() {
  const git = (...args) => execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8' }).trim();
  try {
    const changed = git('status', '--porcelain', '--untracked-files=no') !== '';
    return `${git('rev-parse', '--short=12', 'HEAD')}${changed ? '+changes' : ''}`;
  } catch {
    return 'unknown';
  }
}

/**
 * @param {ReturnType<loadTracker>} load
 * @param {Record<string, unknown>} extra  bench-specific fields (compilers, browser, method)
 */
export function machineBlock(load, extra = {}) {
  const cpus = os.cpus();
  const loadFields = load.block();
  // A 1-minute load above the CPU count means other work wanted every core at some point.
  const busy = loadFields.loadavg_1min_max > cpus.length;
  return {
    cpus: cpus.length,
    cpu_model: cpus[0]?.model ?? 'unknown',
    memory_gib: Math.round(os.totalmem() / 2 ** 30),
    platform: `${os.platform()} ${os.release()}`,
    node: process.version,
    date: new Date().toISOString(),
    code: codeVersion(),
    ...loadFields,
    load_note: busy
      ? `high: the 1-minute load reached ${loadFields.loadavg_1min_max} on ${cpus.length} CPUs (other work shared the cores)`
      : 'at or below the CPU count',
    ...extra,
  };
}
