// Counts on screen: the noun plural unless there is one; every one of 1, 2 or more; a value in
// a message quoted when blank space would hide it.
import { expect, test } from 'vitest';
import { counted, everyOne, valueShown } from '../../../src/spec/words';

test('counted: the noun plural unless there is one', () => {
  expect([0, 1, 2].map((n) => counted(n, 'round'))).toEqual(['0 rounds', '1 round', '2 rounds']);
});

test('everyOne: its one, both, all n', () => {
  expect([1, 2, 3].map((n) => everyOne(n, 'point'))).toEqual([
    'its one point',
    'both points',
    'all 3 points',
  ]);
});

test('valueShown: as given, quoted when empty or edged with blank space', () => {
  expect(['4', 'a b', '', ' ', ' 4', '4\n', 'a  b'].map(valueShown)).toEqual([
    '4',
    'a b',
    '""',
    '" "',
    '" 4"',
    '"4\\n"',
    '"a  b"',
  ]);
});

test('valueShown: a character that prints nothing is escaped, so the value does not look valid', () => {
  // A zero-width space, a left-to-right mark, a soft hyphen.
  expect(valueShown('5\u200b')).toBe('"5\\u200b"');
  expect(valueShown('\u200e4')).toBe('"\\u200e4"');
  expect(valueShown('\u00ad')).toBe('"\\u00ad"');
  expect(valueShown('λ′ → 4')).toBe('λ′ → 4');
});
