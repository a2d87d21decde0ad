// Point labels: letters of points at about one x are pushed at least a gap apart, in the order of
// their points; labels with room, or at other x, keep their place.
import { expect, test } from 'vitest';
import { spreadLabels } from '../../../src/views/chartLayout';

test('labels at one x are pushed apart top to bottom; the rest stay', () => {
  expect(
    spreadLabels([
      { x: 100, y: 50 },
      { x: 103, y: 46 },
      { x: 100, y: 90 },
      { x: 300, y: 50 },
    ]),
  ).toEqual([57, 46, 90, 50]);
});

test('a stack of three at one point each get their own line', () => {
  const ys = spreadLabels(
    [
      { x: 10, y: 20 },
      { x: 10, y: 20 },
      { x: 10, y: 20 },
    ],
    11,
  );
  expect([...ys].sort((a, b) => a - b)).toEqual([20, 31, 42]);
});
