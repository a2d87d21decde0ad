// Property tests of the TypeScript validator on fuzzed specs (specFuzz.ts): it never throws
// anything but a SpecError, every rejection names a field that leads into the input (or the whole
// spec), and an accepted spec normalises to a spec that validates to itself. The wasm suite sends
// the same inputs to the shipped module, which must refuse or run them cleanly
// (tests/wasm/spec-fuzz.test.ts).
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { parseExperimentSpec } from '../../../src/spec/experimentSpec';
import { FUZZ_RUNS, FUZZ_SEED, mutatedSpec } from './specFuzz';
import { outcomeOf } from './specCases';

/** Every field path of `v` as the validators write them (`stages[1].service.us`), with whether
 * the value there is an object (a missing field is named below one). */
function fieldPaths(v: unknown, at = ''): Array<[string, boolean]> {
  const isObject = v !== null && typeof v === 'object' && !Array.isArray(v);
  const here: Array<[string, boolean]> = [[at, isObject]];
  if (Array.isArray(v)) return [...here, ...v.flatMap((x, i) => fieldPaths(x, `${at}[${i}]`))];
  if (isObject)
    return [
      ...here,
      ...Object.entries(v as object).flatMap(([k, x]) => fieldPaths(x, at ? `${at}.${k}` : k)),
    ];
  return here;
}

test('mutated specs: accepted and idempotent, or rejected naming a field of the input', () => {
  fc.assert(
    fc.property(mutatedSpec, (doc) => {
      const outcome = outcomeOf(() => parseExperimentSpec(doc));
      if ('spec' in outcome) {
        const again = outcomeOf(() => parseExperimentSpec(JSON.parse(outcome.spec)));
        expect(again).toEqual(outcome);
        return;
      }
      if (outcome.path === '') return; // the whole spec (not an object)
      expect(outcome.message.startsWith(`${outcome.path}: `)).toBe(true);
      // The path is a field of the input, or a missing field right below one of its objects.
      const fields = fieldPaths(doc);
      const named =
        fields.some(([p]) => p === outcome.path) ||
        fields.some(([p, isObject]) => {
          const rest = p === '' ? outcome.path : outcome.path.slice(p.length + 1);
          const below = p === '' || outcome.path.startsWith(`${p}.`);
          return isObject && below && !/[.[]/.test(rest);
        });
      expect(named, `${outcome.path} in ${JSON.stringify(doc)}`).toBe(true);
    }),
    { seed: FUZZ_SEED, numRuns: FUZZ_RUNS },
  );
});
