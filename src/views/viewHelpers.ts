// Small pure helpers shared by the pipeline views: provenance of marks, finite checks, counts.

/** Where a view's numbers come from: real threads or the discrete-event twin. */
export type Source = 'threads' | 'simulation';

/** The data-kind a mark carries for its source (DESIGN.md: every number says where it came from). */
export function kindOf(source: Source): 'measured' | 'simulated' {
  return source === 'threads' ? 'measured' : 'simulated';
}

/** True for a number that can be drawn (not NaN, not ±Infinity). */
export function isFiniteNumber(x: unknown): x is number {
  return typeof x === 'number' && Number.isFinite(x);
}

/** A count with thousands separators; anything not finite shows as a dash. */
export function formatCount(n: number): string {
  return isFiniteNumber(n) ? Math.round(n).toLocaleString('en-US') : '–';
}
