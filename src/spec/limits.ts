// The ExperimentSpec limits, from contracts/spec-limits.json: the one copy of every range, numeric
// default and memory budget (C++ reads the same file through a header CMake generates at
// configure time).
import contract from '../../contracts/spec-limits.json';

/** Inclusive [min, max]. */
export type Range = readonly [number, number];
type RangeName = keyof typeof contract.ranges;

function toRange(name: string, pair: number[]): Range {
  if (pair.length !== 2 || !(pair[0] <= pair[1]))
    throw new Error(`contracts/spec-limits.json: ranges.${name} must be [min, max]`);
  return [pair[0], pair[1]];
}

export const LIMITS = Object.fromEntries(
  Object.entries(contract.ranges).map(([name, pair]) => [name, toRange(name, pair)]),
) as Record<RangeName, Range>;
export const DEFAULTS: Readonly<typeof contract.defaults> = contract.defaults;
/** What one two-stage run may hold in the threads engine's wasm memory (bytes, records). */
export const BUDGETS: Readonly<typeof contract.budgets> = contract.budgets;
