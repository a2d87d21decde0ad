// Ratios between two report rows, computed one way for every benchmark and saved in the report
// (`ratios`), so every printed figure is in the JSON. Rows measured in the same run are paired by
// round (samples taken seconds apart under the same load): the ratio is the median of the
// per-round ratios, with their min and max. Rows from different runs (a partial re-run) only
// give the ratio of their medians, with the range from both rows' min and max, and say so. Each
// ratio also gives `best_ratio`, the ratio of the two rows' fastest rounds: on this shared
// machine load only ever slows a run, so it is the figure least touched by other work.
import { median } from './stats.mjs';

/**
 * @typedef {{name: string, of: string, over: string, basis: string, method: string,
 *   ratio: number, ratio_min: number, ratio_max: number, pairs: number, best_ratio: number,
 *   goal?: number,
 *   verdict?: string, note?: string}} Ratio
 */

/** The fastest round of a row's series (its `_max` field when the series is missing). */
const fastest = (series, max) =>
  series.some((x) => x != null) ? Math.max(...series.filter((x) => x != null)) : max;

/**
 * @param {string} name  what the ratio says, as printed
 * @param {object | undefined} of  numerator row
 * @param {object | undefined} over  denominator row
 * @param {{series?: string, value?: string, goal?: number, note?: string}} [options]
 *   series: the rows' by-round field (default 'rates'), value: their median field ('items_per_s').
 * @returns {Ratio | null}  null when a row is missing (its group was not run)
 */
export function ratio(name, of, over, options = {}) {
  if (!of || !over) return null;
  const { series = 'rates', value = 'items_per_s', goal, note } = options;
  const a = of[series] ?? [];
  const b = over[series] ?? [];
  const pairs = a
    .map((x, round) => (x != null && b[round] != null ? x / b[round] : null))
    .filter((x) => x != null);
  const paired = of.run_id === over.run_id && pairs.length > 0;
  /** @type {Ratio} */
  const result = {
    name,
    of: `${of.target} ${of.key}`,
    over: `${over.target} ${over.key}`,
    basis: value,
    method: paired ? 'median of per-round ratios' : 'ratio of medians (rows from different runs)',
    ratio: paired ? median(pairs) : of[value] / over[value],
    ratio_min: paired ? Math.min(...pairs) : of[`${value}_min`] / over[`${value}_max`],
    ratio_max: paired ? Math.max(...pairs) : of[`${value}_max`] / over[`${value}_min`],
    pairs: paired ? pairs.length : 0,
    best_ratio: fastest(a, of[`${value}_max`]) / fastest(b, over[`${value}_max`]),
  };
  if (goal !== undefined) {
    result.goal = goal;
    result.verdict = result.ratio >= goal ? 'met' : 'missed';
  }
  if (note) result.note = note;
  return result;
}

const fmt = (x) =>
  !Number.isFinite(x) ? String(x) : x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(3);

/** The printed table of ratios: exactly the saved records, one line each. */
export function formatRatios(title, ratios) {
  const width = Math.max(20, ...ratios.map((r) => r.name.length));
  const lines = [title];
  for (const r of ratios) {
    const goal = r.goal === undefined ? '' : `${r.verdict} (goal >= ${r.goal})`;
    const how = r.pairs ? `${r.pairs} rounds` : 'unpaired';
    lines.push(
      `  ${r.name.padEnd(width)} ${fmt(r.ratio).padStart(8)}  [${fmt(r.ratio_min)}-${fmt(r.ratio_max)}]  best ${fmt(r.best_ratio).padEnd(6)} ${how.padEnd(9)} ${goal}${r.note ? `  ${r.note}` : ''}`,
    );
  }
  return lines.join('\n');
}
