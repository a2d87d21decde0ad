// Reading and writing the reports in bench/results/: `{"machine": {...}, "results": [...],
// "ratios": [...]}` (DESIGN.md's bench format, extended with every ratio the driver printed). A
// partial run (some groups only) replaces the rows it measured, keeps the others, and notes
// itself in the machine block's `partial_runs`.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../scripts/lib/proc.mjs';

export const resultsDir = join(repoRoot, 'bench', 'results');

export function readReport(name) {
  const file = join(resultsDir, `${name}.json`);
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
}

/** Rows of `previous` whose key was not measured again, then the fresh rows. */
export function mergeRows(previous, fresh) {
  const measured = new Set(fresh.map((row) => `${row.target}|${row.key}`));
  return [...previous.filter((row) => !measured.has(`${row.target}|${row.key}`)), ...fresh];
}

/**
 * The machine block and rows a report will hold: this run's alone, or (partial) merged into the
 * report already on disk. Ratios are computed from the returned rows.
 * @param {string} name  file name without .json
 * @param {object} machine  this run's machine block
 * @param {object[]} fresh  this run's rows
 * @param {string} [partial]  what a partial run covered, e.g. 'groups telemetry'
 */
export function combine(name, machine, fresh, partial) {
  const previous = partial ? readReport(name) : undefined;
  if (!previous) return { machine, results: fresh };
  return {
    machine: {
      ...previous.machine,
      partial_runs: [...(previous.machine.partial_runs ?? []), { covered: partial, ...machine }],
    },
    results: mergeRows(previous.results, fresh),
  };
}

/** Writes bench/results/<name>.json. */
export function writeReport(name, report) {
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, `${name}.json`);
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`wrote ${file} (${report.results.length} results, ${report.ratios.length} ratios)`);
}
