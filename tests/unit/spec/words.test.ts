// Counts on screen: the noun plural unless there is one.
import { expect, test } from 'vitest';
import { counted } from '../../../src/spec/words';

test('counted: the noun plural unless there is one', () => {
  expect([0, 1, 2].map((n) => counted(n, 'round'))).toEqual(['0 rounds', '1 round', '2 rounds']);
});
