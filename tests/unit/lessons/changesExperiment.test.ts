// A choice whose options all set nothing belongs to the lesson's own views: the experiment panel
// leaves it out; ranges and choices that set fields stay.
import { expect, test } from 'vitest';
import { changesExperiment, type LessonControl } from '../../../src/lessons/controls';

const range: LessonControl = {
  kind: 'range',
  id: 'n',
  label: 'n',
  targets: ['items'],
  min: 1,
  max: 9,
  step: 1,
  unit: null,
  defaultValue: 1,
};
const choice = (sets: Array<Record<string, unknown>>): LessonControl => ({
  kind: 'choice',
  id: 'c',
  label: 'c',
  choices: sets.map((set, i) => ({ value: String(i), label: String(i), set })),
  defaultValue: '0',
});

test('ranges and choices that set a field change the experiment; empty choices do not', () => {
  expect(changesExperiment(range)).toBe(true);
  expect(changesExperiment(choice([{}, { items: 5 }]))).toBe(true);
  expect(changesExperiment(choice([{}, {}]))).toBe(false);
});
