// The spread of repeated values — a sweep point's runs, a claim's twin seeds, a race's rounds:
// their median (d3-array's, the one median in the app) with the smallest and the largest.
import { max, median, min } from 'd3';

export interface Spread {
  /** The middle value (the mean of the two middle ones for an even count). */
  median: number;
  min: number;
  max: number;
}

export function spreadOf(values: number[]): Spread {
  if (values.length === 0) throw new RangeError('spreadOf: no values');
  return { median: median(values)!, min: min(values)!, max: max(values)! };
}
