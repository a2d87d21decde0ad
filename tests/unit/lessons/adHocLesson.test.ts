// #/experiment's spec: every problem says it is the spec's, with the field path below it.
import { expect, test } from 'vitest';
import { adHocLesson } from '../../../src/lessons/adHocLesson';

test.each([
  [null, 'spec is missing: use #/experiment?spec=<ExperimentSpec JSON>'],
  ['{', /^spec is not valid JSON: /],
  ['[]', 'spec: an array is not an object'],
  ['{"runtime":"static","stages":[],"items":1}', /^spec: stages: /],
])('%s → %s', (json, message) => {
  expect(() => adHocLesson(json)).toThrow(message);
});
