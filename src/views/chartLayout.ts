// Pure layout helpers for the charts: integer ticks, clipping time segments to a
// window, and legend rows that wrap to a width.
import { isFiniteNumber } from './viewHelpers';

/** Integer ticks when every x is an integer and the domain spans at most 20; else undefined. */
export function integerTicks([x0, x1]: [number, number], xs: number[]): number[] | undefined {
  if (!xs.every(Number.isInteger) || x1 - x0 > 20) return undefined;
  const step = x1 - x0 > 12 ? 2 : 1;
  const ticks: number[] = [];
  for (let t = Math.ceil(x0); t <= x1; t += step) ticks.push(t);
  return ticks;
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
