// Rate formatting: SI suffixes with three significant digits; nonsense shows as 0.
import { expect, test } from 'vitest';
import { formatRate } from '../../../src/views/format';

test.each([
  [0, '0'],
  [-5, '0'],
  [Number.NaN, '0'],
  [12.345, '12.3'],
  [1234, '1.23 k'],
  [52_600_000, '52.6 M'],
  [3.2e9, '3.20 G'],
])('formatRate(%d) = %s', (x, s) => expect(formatRate(x)).toBe(s));
