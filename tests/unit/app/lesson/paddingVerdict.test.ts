// The false-sharing race's verdict on padding: one way only when every round's ratio agrees.
import { expect, test } from 'vitest';
import { paddingVerdict } from '../../../../src/app/lesson/components/FalseSharingBlock';

const ratio = (min: number, max: number, pairs = 3) => ({
  median: (min + max) / 2,
  min,
  max,
  pairs,
});

test.each([
  [ratio(2.1, 3.4), 'Padding sped BatchQueue up in all 3 rounds.'],
  [ratio(0.35, 0.65), 'Padding slowed BatchQueue down in all 3 rounds.'],
  [ratio(0.8, 0.8, 1), 'Padding slowed BatchQueue down in the one round.'],
  [ratio(0.7, 1.3), 'Padding did not move BatchQueue the same way in every round.'],
  [ratio(1, 1.2), 'Padding did not move BatchQueue the same way in every round.'],
  [ratio(0.9, 1), 'Padding did not move BatchQueue the same way in every round.'],
])('%o: %s', (r, sentence) => {
  expect(paddingVerdict('BatchQueue', r)).toBe(sentence);
});
