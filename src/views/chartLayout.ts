// Pure layout helpers for the charts: integer ticks, log ticks spaced for their labels, clipping
// time segments to a window, legend rows that wrap to a width, and point labels kept apart.
import { isFiniteNumber } from './viewHelpers';

/** Integer ticks when every x is an integer and the domain spans at most 20; else undefined. */
export function integerTicks([x0, x1]: [number, number], xs: number[]): number[] | undefined {
  if (!xs.every(Number.isInteger) || x1 - x0 > 20) return undefined;
  const step = x1 - x0 > 12 ? 2 : 1;
  const ticks: number[] = [];
  for (let t = Math.ceil(x0); t <= x1; t += step) ticks.push(t);
  return ticks;
}

/** 1 for 1, 10, 100…; 2 for 2 and 5 times those; 3 for the other multiples. */
function tickRank(t: number): number {
  const mantissa = Math.round((t / 10 ** Math.floor(Math.log10(t))) * 1e6) / 1e6;
  return mantissa === 1 ? 1 : mantissa === 2 || mantissa === 5 ? 2 : 3;
}

/**
 * The ticks of a log axis worth labelling: at least `minPx` apart where `at` puts them. Over a
 * decade or two d3 gives every multiple 1…9 as a tick and their labels overlap, so the powers of
 * ten are kept first, then the 2s and 5s, then the rest, each only where it has room. In order.
 */
export function spacedLogTicks(
  ticks: number[],
  at: (t: number) => number,
  minPx: number,
): number[] {
  const kept: number[] = [];
  const byRank = ticks.filter((t) => t > 0).sort((a, b) => tickRank(a) - tickRank(b));
  for (const t of byRank) if (kept.every((k) => Math.abs(at(k) - at(t)) >= minPx)) kept.push(t);
  return kept.sort((a, b) => a - b);
}

/** The segments that overlap [t0Us, t1Us], cut to it; non-finite or empty ones are dropped. */
export function clipToWindow<S extends { startUs: number; endUs: number }>(
  segments: S[],
  t0Us: number,
  t1Us: number,
): S[] {
  return segments.flatMap((s) => {
    if (!isFiniteNumber(s.startUs) || !isFiniteNumber(s.endUs)) return [];
    const startUs = Math.max(s.startUs, t0Us);
    const endUs = Math.min(s.endUs, t1Us);
    return endUs > startUs ? [{ ...s, startUs, endUs }] : [];
  });
}

/** Legend entries placed left to right from `x0Px`, wrapping to a new row past `widthPx`. */
export function legendRows<E extends { label: string }>(
  entries: E[],
  x0Px: number,
  widthPx: number,
): Array<E & { x: number; row: number }> {
  let x = x0Px;
  let row = 0;
  return entries.map((e) => {
    const w = 19 + e.label.length * 7.5 + 16;
    if (x + w > widthPx && x > x0Px) {
      x = x0Px;
      row += 1;
    }
    const item = { ...e, x, row };
    x += w;
    return item;
  });
}

/**
 * Label heights (px, the label's baseline) for marks drawn beside points: labels of points at about
 * the same x (within `near` px) are pushed apart to at least `gap` px, top to bottom in the order
 * of their points, so two series' letters at one setting never print on top of each other.
 * Returns one y per label, in the input order; labels with room keep their own y.
 */
export function spreadLabels(
  labels: ReadonlyArray<{ x: number; y: number }>,
  gap = 11,
  near = 12,
): number[] {
  const out = labels.map((l) => l.y);
  const order = labels.map((_, i) => i).sort((a, b) => labels[a].x - labels[b].x);
  // Columns of labels at about the same x.
  const columns: number[][] = [];
  for (const i of order) {
    const column = columns.at(-1);
    if (column && labels[i].x - labels[column[0]].x <= near) column.push(i);
    else columns.push([i]);
  }
  for (const column of columns) {
    column.sort((a, b) => labels[a].y - labels[b].y);
    for (let k = 1; k < column.length; k++)
      out[column[k]] = Math.max(out[column[k]], out[column[k - 1]] + gap);
  }
  return out;
}

/** `label` cut with an ellipsis to fit `widthPx` at a legend's size (about 7.5 px a letter, as
 * legendRows counts): on a phone a long curve name would run off the chart's edge. */
export function fitLabel(label: string, widthPx: number): string {
  const letters = Math.max(4, Math.floor(widthPx / 7.5));
  return label.length <= letters ? label : `${label.slice(0, letters - 1)}…`;
}
