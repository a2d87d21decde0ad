// The one median and percentile of the benchmark reports (bench/lib/stats.mjs).
import { describe, expect, test } from 'vitest';
import { median, percentile, spread } from '../../../bench/lib/stats.mjs';

describe('median', () => {
  test('odd count: the middle value, whatever the input order', () => {
    expect(median([5, 1, 3])).toBe(3);
  });
  test('even count: the mean of the two middle values', () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([10, 20])).toBe(15);
  });
  test('does not reorder its input', () => {
    const values = [3, 1, 2];
    median(values);
    expect(values).toEqual([3, 1, 2]);
  });
  test('no values: a clear error', () => {
    expect(() => median([])).toThrow(/no values/);
  });
});

describe('percentile (nearest rank)', () => {
  const hundred = Array.from({ length: 100 }, (_, i) => 100 - i); // 100..1
  test('p95 of 1..100 is 95, p100 the maximum', () => {
    expect(percentile(hundred, 0.95)).toBe(95);
    expect(percentile(hundred, 1)).toBe(100);
  });
  test('p out of (0, 1]: names the value and the range', () => {
    expect(() => percentile(hundred, 95)).toThrow(/p 95 is out of range \(allowed \(0, 1\]\)/);
  });
});

test('spread: median, min and max under the value name', () => {
  expect(spread('items_per_s', [3, 9, 1, 5])).toEqual({
    items_per_s: 4,
    items_per_s_min: 1,
    items_per_s_max: 9,
  });
});
