// The spread of repeats: d3-array's median (the mean of the two middle values for an even count),
// with the extremes, whatever the order the values came in.
import { expect, test } from 'vitest';
import { spreadOf } from '../../../src/model/spread';

test('median, min and max of odd and even counts, in any order', () => {
  expect(spreadOf([3, 1, 2])).toEqual({ median: 2, min: 1, max: 3 });
  expect(spreadOf([4, 1, 3, 2])).toEqual({ median: 2.5, min: 1, max: 4 });
  expect(spreadOf([7])).toEqual({ median: 7, min: 7, max: 7 });
});

test('no values is an error, not NaN', () => {
  expect(() => spreadOf([])).toThrow(/no values/);
});
