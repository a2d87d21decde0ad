// Reading controls from the URL query: every value is checked against its allowed range, and a bad
// value yields a message naming it and the range, plus the fallback used, instead of a broken page.
import { valueShown } from '../spec/words';

export interface IntRange {
  min: number;
  max: number;
  fallback: number;
}

export interface Parsed<T> {
  value: T;
  /** Set when the query held a bad value: what it was, what is allowed, what is used instead. */
  error: string | null;
}

/** `threads=` (a key with nothing after it, as a hand-edited link leaves) is said like any other bad
 * value: the visitor asked for something, and must learn that the default is used instead. */
export function noValue(name: string, allowed: string, fallback: string | number): string {
  return `${name}= has no value (${allowed}); using ${fallback}`;
}

/** What is wrong with a typed or linked integer, or null when it is a whole number in range: the
 * one check behind a URL value (parseIntParam) and a typed field (the counting page's threads). */
export function intProblem(
  raw: string,
  range: Pick<IntRange, 'min' | 'max'>,
): 'empty' | 'not a whole number' | 'out of range' | null {
  if (raw === '') return 'empty';
  if (!/^[+-]?\d+$/.test(raw.trim())) return 'not a whole number';
  const n = Number(raw);
  return n < range.min || n > range.max ? 'out of range' : null;
}

export function parseIntParam(
  query: URLSearchParams,
  name: string,
  range: IntRange,
): Parsed<number> {
  const raw = query.get(name);
  if (raw === null) return { value: range.fallback, error: null };
  const allowed = `allowed ${range.min}..${range.max}`;
  const problem = intProblem(raw, range);
  if (problem === null) return { value: Number(raw), error: null };
  const error =
    problem === 'empty'
      ? noValue(name, allowed, range.fallback)
      : `${name}=${valueShown(raw)} is ${problem} (${allowed}); using ${range.fallback}`;
  return { value: range.fallback, error };
}

export function parseChoiceParam<T extends string>(
  query: URLSearchParams,
  name: string,
  choices: readonly T[],
  fallback: T,
): Parsed<T> {
  const raw = query.get(name);
  if (raw === null) return { value: fallback, error: null };
  if (raw === '')
    return { value: fallback, error: noValue(name, `one of ${choices.join(', ')}`, fallback) };
  if ((choices as readonly string[]).includes(raw)) return { value: raw as T, error: null };
  return {
    value: fallback,
    error: `${name}=${valueShown(raw)} is not one of ${choices.join(', ')}; using ${fallback}`,
  };
}

/** One message per query key the page does not take, naming the keys it does, and per key given
 * more than once: a typo'd parameter must be said, not silently ignored. */
export function unknownParamErrors(
  query: URLSearchParams,
  known: readonly string[],
  noun = 'a parameter of this page',
): string[] {
  const list = known.length ? known.join(', ') : 'none';
  const keys = [...new Set(query.keys())];
  return [
    ...keys
      .filter((key) => !known.includes(key))
      .map((key) => `${key} is not ${noun} (known: ${list})`),
    // A key given twice is a typo or a pasted URL: the page reads the first, and says so.
    ...keys
      .map((key) => [key, query.getAll(key)] as const)
      .filter(([key, given]) => known.includes(key) && given.length > 1)
      .map(
        ([key, given]) =>
          `${key} is given ${given.length} times (${given.join(', ')}); the first is used`,
      ),
  ];
}
