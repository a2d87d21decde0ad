// From samples (one per timed run) to report rows: one row per (target, key), the median over the
// rounds with min and max, the per-round values kept (`rates`) so any ratio can be recomputed
// from the JSON, and the shortest run (`run_ms_min`) so a reader sees each figure rests on runs
// of at least 100 ms. A key names one measurement: two different ones sharing a key is an error.
import { median, spread } from './stats.mjs';

/** Per-sample fields: measured each run, summarized in the row rather than copied. */
const PER_SAMPLE = new Set(['round', 'target', 'seconds', 'items', 'items_per_s']);

/**
 * @param {object[]} samples  each {target, key, group, round, items, seconds, items_per_s, ...}
 * @param {{bench: string, rounds: number, runId: string,
 *   medians?: string[], ranges?: string[], series?: Record<string, string>}} how
 *   medians: further per-sample fields summarized by their median (ranges: also min and max),
 *   in the rows whose samples have them;
 *   series: row field → sample field kept by round (default {rates: 'items_per_s'}).
 */
export function aggregate(samples, { bench, rounds, runId, medians = [], ranges = [], series }) {
  const bySeries = series ?? { rates: 'items_per_s' };
  const groups = new Map();
  for (const sample of samples) {
    const id = `${sample.target}|${sample.key}`;
    if (!groups.has(id)) groups.set(id, []);
    const group = groups.get(id);
    if (group.some((other) => other.round === sample.round))
      throw new Error(
        `two samples of ${sample.target} ${sample.key} in round ${sample.round}: keys must name one measurement each`,
      );
    group.push(sample);
  }
  return [...groups.values()].map((runs) => {
    const skip = new Set([...PER_SAMPLE, ...medians, ...ranges]);
    const identity = Object.fromEntries(Object.entries(runs[0]).filter(([k]) => !skip.has(k)));
    const row = {
      bench,
      target: runs[0].target,
      ...identity,
      items: Math.round(median(runs.map((r) => r.items))),
      ...spread(
        'items_per_s',
        runs.map((r) => r.items_per_s),
      ),
    };
    // A field some rows lack (latency in throughput rows) is left out of those rows.
    const present = (name) => runs[0][name] !== undefined;
    for (const name of ranges.filter(present))
      Object.assign(
        row,
        spread(
          name,
          runs.map((r) => r[name]),
        ),
      );
    for (const name of medians.filter(present)) row[name] = median(runs.map((r) => r[name]));
    for (const [name, field] of Object.entries(bySeries)) {
      if (!present(field)) continue;
      row[name] = Array.from(
        { length: rounds },
        (_, round) => runs.find((r) => r.round === round)?.[field] ?? null,
      );
    }
    row.run_ms_min = Math.min(...runs.map((r) => r.seconds * 1000));
    row.repeats = runs.length;
    row.run_id = runId;
    return row;
  });
}
