// The counting page's controls as they appear in the URL (#/threads?threads=4&layout=packed&workNs=0),
// validated with the allowed ranges.
import { parseChoiceParam, parseIntParam, unknownParamErrors } from '../queryParams';

export const LAYOUTS = ['packed', 'padded'] as const;
export type LayoutName = (typeof LAYOUTS)[number];
export const MAX_THREADS = 64;
/** Busy work between two counts, in ns: a menu, since the effect lives at the extremes. */
export const WORK_CHOICES_NS = [0, 50, 200, 1000, 5000] as const;

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
