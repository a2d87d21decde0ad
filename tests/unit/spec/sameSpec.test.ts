// Two specs are the same run whatever order their keys were written in; any differing field,
// nested or not, makes them differ.
import { expect, test } from 'vitest';
import { sameSpec } from '../../../src/spec/sameSpec';

test('key order does not matter; values, nesting and array order do', () => {
  const a = { runtime: 'static', stages: [{ name: 'in', threads: 1 }], items: 10 };
  expect(sameSpec(a, { items: 10, stages: [{ threads: 1, name: 'in' }], runtime: 'static' })).toBe(
    true,
  );
  expect(sameSpec(a, { ...a, items: 11 })).toBe(false);
  expect(sameSpec(a, { ...a, stages: [{ name: 'in', threads: 2 }] })).toBe(false);
  expect(sameSpec({ xs: [1, 2] }, { xs: [2, 1] })).toBe(false);
  // An absent field and one set to undefined are the same (JSON drops both).
  expect(sameSpec({ a: 1 }, { a: 1, b: undefined })).toBe(true);
});
