// URL query values: accepted in range, and bad ones named with their range and the fallback used.
import { describe, expect, test } from 'vitest';
import { parseChoiceParam, parseIntParam, unknownParamErrors } from '../../../src/app/queryParams';
import { readControlValues } from '../../../src/app/lesson/lessonControls';
import type { LessonControl } from '../../../src/lessons/controls';
import {
  layoutLabel,
  readCountingControls,
  typedThreads,
  verdictWords,
} from '../../../src/app/counting/countingParams';

const q = (s: string) => new URLSearchParams(s);
const range = { min: 1, max: 64, fallback: 2 };

describe('parseIntParam', () => {
  test('absent gives the fallback without an error', () => {
    expect(parseIntParam(q(''), 'threads', range)).toEqual({ value: 2, error: null });
  });
  test('a key with no value gives the fallback and says so, with the range', () => {
    expect(parseIntParam(q('threads='), 'threads', range)).toEqual({
      value: 2,
      error: 'threads= has no value (allowed 1..64); using 2',
    });
  });
  test('in-range values pass, bounds included', () => {
    expect(parseIntParam(q('threads=1'), 'threads', range).value).toBe(1);
    expect(parseIntParam(q('threads=64'), 'threads', range).value).toBe(64);
  });
  test.each(['-3', '0', '65', '100000'])('threads=%s is out of range', (raw) => {
    const r = parseIntParam(q(`threads=${raw}`), 'threads', range);
    expect(r.value).toBe(2);
    expect(r.error).toBe(`threads=${raw} is out of range (allowed 1..64); using 2`);
  });
  test.each(['abc', '1.5', '2e3', '0x10', ' '])('threads=%s is not a whole number', (raw) => {
    const r = parseIntParam(q(`threads=${encodeURIComponent(raw)}`), 'threads', range);
    expect(r.value).toBe(2);
    expect(r.error).toMatch(/is not a whole number \(allowed 1\.\.64\); using 2$/);
  });
  test('a value of blank space is shown quoted: "threads= is not…" looked like no value', () => {
    expect(parseIntParam(q('threads=%20'), 'threads', range).error).toBe(
      'threads=" " is not a whole number (allowed 1..64); using 2',
    );
  });
});

describe('parseChoiceParam', () => {
  test('known choice passes, unknown is named with the choices', () => {
    expect(
      parseChoiceParam(q('layout=padded'), 'layout', ['packed', 'padded'], 'packed').value,
    ).toBe('padded');
    expect(
      parseChoiceParam(q('layout=diagonal'), 'layout', ['packed', 'padded'], 'packed'),
    ).toEqual({
      value: 'packed',
      error: 'layout=diagonal is not one of packed, padded; using packed',
    });
  });
  test('a key with no value is named with the choices', () => {
    expect(parseChoiceParam(q('layout='), 'layout', ['packed', 'padded'], 'packed')).toEqual({
      value: 'packed',
      error: 'layout= has no value (one of packed, padded); using packed',
    });
  });
});

describe('readCountingControls', () => {
  test('defaults to one thread per core, capped at 64', () => {
    expect(readCountingControls(q(''), 8).controls.threads).toBe(8);
    expect(readCountingControls(q(''), 128).controls.threads).toBe(64);
  });
  test('collects every bad value', () => {
    const { controls, errors } = readCountingControls(q('threads=-3&layout=x&workNs=abc'), 4);
    expect(controls).toEqual({ threads: 4, layout: 'packed', workNs: 0 });
    expect(errors).toHaveLength(3);
  });
});

describe('unknownParamErrors and page parameters', () => {
  test('a key given twice is named with its values, and the first is used', () => {
    expect(unknownParamErrors(q('npTh=4&npTh=8&zz=1'), ['npTh'])).toEqual([
      'zz is not a parameter of this page (known: npTh)',
      'npTh is given 2 times (4, 8); the first is used',
    ]);
    expect(unknownParamErrors(q('npTh=4'), ['npTh'])).toEqual([]);
  });
  test("a page parameter's bad value is named with the values it takes; good ones pass", () => {
    const controls: LessonControl[] = [];
    expect(readControlValues(controls, q('engine=gpu'), 'x', ['engine']).errors).toEqual([
      'engine=gpu is not one of simulation (engine=simulation runs the twin instead of real threads); ignored',
    ]);
    expect(readControlValues(controls, q('audience=yes'), 'x', ['audience']).errors).toEqual([
      "audience=yes is not one of 1 (audience=1 is the presenter's audience window); ignored",
    ]);
    expect(
      readControlValues(controls, q('engine=simulation&audience=1'), 'x', ['engine', 'audience'])
        .errors,
    ).toEqual([]);
  });
  test("a lesson control's key with no value is named with its range and default", () => {
    const threads: LessonControl = {
      kind: 'range',
      id: 'threads',
      label: 'Threads',
      min: 1,
      max: 8,
      step: 1,
      unit: null,
      defaultValue: 2,
      targets: [],
    };
    expect(readControlValues([threads], q('threads='))).toEqual({
      values: { threads: 2 },
      errors: ['threads= has no value (allowed 1..8); using 2'],
    });
  });
});

describe('layoutLabel', () => {
  test('packed counters fill one cache line per 8 threads; padded ones a line each', () => {
    expect(layoutLabel('packed', 1)).toBe('side by side (one cache line)');
    expect(layoutLabel('packed', 8)).toBe('side by side (one cache line)');
    expect(layoutLabel('packed', 12)).toBe('side by side (8 to a cache line: 2 lines)');
    expect(layoutLabel('packed', 64)).toBe('side by side (8 to a cache line: 8 lines)');
    expect(layoutLabel('padded', 12)).toBe('padded (a line each)');
  });
});

describe('the counting page in words', () => {
  test('a ratio near 1 is "about as fast", below it "slower", above it N× as fast', () => {
    expect(verdictWords(1.05)).toEqual({
      lead: 'Padded counters count about as fast ',
      figure: '(1.05×)',
      rest: ' as counters sharing a line',
    });
    expect(verdictWords(0.8).lead).toBe('Padded counters count slower: ');
    expect(verdictWords(3.14).figure).toBe('3.1×');
  });
  test('a typed thread count out of range or not a number is named with the range', () => {
    expect(typedThreads('12')).toEqual({ value: 12 });
    expect(typedThreads('0')).toEqual({ error: 'Threads: 0 is out of range (allowed 1..64)' });
    expect(typedThreads('65')).toEqual({ error: 'Threads: 65 is out of range (allowed 1..64)' });
    expect(typedThreads('-1')).toEqual({ error: 'Threads: -1 is out of range (allowed 1..64)' });
    expect(typedThreads('2.5')).toEqual({
      error: 'Threads: "2.5" is not a whole number (allowed 1..64)',
    });
    expect(typedThreads('')).toEqual({ error: 'Threads: empty (allowed 1..64)' });
  });
});
