// Rate formatting: SI suffixes with three significant digits; nonsense shows as 0. Whole numbers
// that keep their sum.
import { expect, test } from 'vitest';
import { formatRate, roundKeepingSum } from '../../../src/views/format';

test.each([
  [0, '0'],
  [-5, '0'],
  [Number.NaN, '0'],
  [12.345, '12.3'],
  [1234, '1.23 k'],
  [52_600_000, '52.6 M'],
  [3.2e9, '3.20 G'],
])('formatRate(%d) = %s', (x, s) => expect(formatRate(x)).toBe(s));

test.each([
  [
    [1.4, 1.4, 1.4],
    [2, 1, 1],
  ], // each rounded alone: 3, the sum rounded: 4
  [
    [470.6, 1450.3, 5380.4],
    [471, 1450, 5380],
  ],
  [
    [2.5, 2.5],
    [3, 2],
  ],
  [
    [1, 2, 3],
    [1, 2, 3],
  ],
  [
    [0.2, 0.2],
    [0, 0],
  ],
  [[], []],
])('roundKeepingSum(%j) = %j, adding up to the rounded sum', (values, whole) => {
  const out = roundKeepingSum(values);
  expect(out).toEqual(whole);
  expect(out.reduce((a, b) => a + b, 0)).toBe(Math.round(values.reduce((a, b) => a + b, 0)));
});
