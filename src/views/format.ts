// Number formatting shared by the views: rates with SI suffixes, fixed significant digits, whole
// numbers that keep their sum.

export function formatRate(perSec: number): string {
  if (!Number.isFinite(perSec) || perSec <= 0) return '0';
  const units: Array<[number, string]> = [
    [1e9, 'G'],
    [1e6, 'M'],
    [1e3, 'k'],
  ];
  for (const [scale, suffix] of units)
    if (perSec >= scale) return `${(perSec / scale).toPrecision(3)} ${suffix}`;
  return perSec.toPrecision(3);
}

/** A duration given in µs, in ms: two decimals under 10 ms, one above. */
export const formatMs = (us: number) => `${(us / 1000).toFixed(us < 10_000 ? 2 : 1)} ms`;

/** A paper row's number in its unit: a ratio as 2.30×, a percentage as 33.7%, others with 3–4
 * significant digits and the unit. */
export function formatInUnit(value: number, unit: string): string {
  if (!Number.isFinite(value)) return '—';
  if (unit === 'ratio') return `${value.toFixed(2)}×`;
  if (unit === '%') return `${value.toFixed(1)}%`;
  if (unit === 'count') return String(Math.round(value));
  if (unit === 'items/s') return `${formatRate(value)} items/s`;
  return `${value.toPrecision(4)} ${unit}`;
}

/** `values` as whole numbers that add up to their sum rounded (largest remainder: each is rounded
 * down, then the ones that lost most go up by one), so a list of parts printed beside its total
 * adds up; rounding each on its own can miss the total by one or more. */
export function roundKeepingSum(values: number[]): number[] {
  const floors = values.map(Math.floor);
  const total = Math.round(values.reduce((a, v) => a + v, 0));
  let short = total - floors.reduce((a, v) => a + v, 0);
  const byRemainder = values
    .map((_, i) => i)
    .sort((a, b) => values[b] - floors[b] - (values[a] - floors[a]));
  const out = [...floors];
  for (const i of byRemainder) {
    if (short <= 0) break;
    out[i] += 1;
    short -= 1;
  }
  return out;
}
