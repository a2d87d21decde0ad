// The counting page's controls as they appear in the URL (#/threads?threads=4&layout=packed&workNs=0),
// validated with the allowed ranges.
import { intProblem, parseChoiceParam, parseIntParam, unknownParamErrors } from '../queryParams';

export const LAYOUTS = ['packed', 'padded'] as const;
export type LayoutName = (typeof LAYOUTS)[number];
export const MAX_THREADS = 64;
/** Busy work between two counts, in ns: a menu, since the effect lives at the extremes. */
export const WORK_CHOICES_NS = [0, 50, 200, 1000, 5000] as const;

/** Packed counters are 8 bytes apart, so 8 share a 64-byte cache line (counting_threads.hpp). */
export const COUNTERS_PER_LINE = 8;

/** The layout in words for a count of threads: packed counters fill ceil(threads / 8) lines. */
export function layoutLabel(layout: LayoutName, threads: number): string {
  if (layout === 'padded') return 'padded (a line each)';
  const lines = Math.ceil(Math.max(1, threads) / COUNTERS_PER_LINE);
  return lines === 1
    ? 'side by side (one cache line)'
    : `side by side (${COUNTERS_PER_LINE} to a cache line: ${lines} lines)`;
}

export interface CountingControls {
  threads: number;
  layout: LayoutName;
  workNs: number;
}

export function readCountingControls(
  query: URLSearchParams,
  cores: number,
): { controls: CountingControls; errors: string[] } {
  const threads = parseIntParam(query, 'threads', {
    min: 1,
    max: MAX_THREADS,
    fallback: Math.min(Math.max(cores, 1), MAX_THREADS),
  });
  const layout = parseChoiceParam(query, 'layout', LAYOUTS, 'packed');
  const workNs = parseIntParam(query, 'workNs', { min: 0, max: 1_000_000, fallback: 0 });
  return {
    controls: { threads: threads.value, layout: layout.value, workNs: workNs.value },
    errors: [
      ...[threads.error, layout.error, workNs.error].filter((e): e is string => e !== null),
      ...unknownParamErrors(query, ['threads', 'layout', 'workNs']),
    ],
  };
}

/** The comparison in words: "about as fast" near 1, where "1.0× as fast" reads oddly, and
 * "slower" below it. */
export function verdictWords(ratio: number): { lead: string; figure: string; rest: string } {
  if (Math.abs(ratio - 1) < 0.1)
    return {
      lead: 'Padded counters count about as fast ',
      figure: `(${ratio.toFixed(2)}×)`,
      rest: ' as counters sharing a line',
    };
  if (ratio < 1)
    return {
      lead: 'Padded counters count slower: ',
      figure: `${ratio.toFixed(2)}×`,
      rest: ' the rate of counters sharing a line',
    };
  return {
    lead: 'Padded counters count ',
    figure: `${ratio.toFixed(1)}×`,
    rest: ' as fast as counters sharing a line',
  };
}

/** A typed thread count: the number, or the message naming it and the range. */
export function typedThreads(text: string): { value: number } | { error: string } {
  const allowed = `allowed 1..${MAX_THREADS}`;
  const problem = intProblem(text, { min: 1, max: MAX_THREADS });
  if (problem === null) return { value: Number(text) };
  const what =
    problem === 'empty'
      ? 'empty'
      : problem === 'out of range'
        ? `${Number(text)} is out of range`
        : `"${text}" is not a whole number`;
  return { error: `Threads: ${what} (${allowed})` };
}
