// The two validators agree on fuzzed input (tests/unit/spec/specFuzz.ts): for every mutated spec
// and every byte-edited JSON text, the TypeScript validator and the C++ parser in the real wasm
// module give the same outcome — the same normalised spec, or the same field path and message.
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { parseExperimentSpecJson } from '../../src/spec/experimentSpec';
import type { PipelabModule } from '../../src/engine/wasmExports';
import { outcomeOf } from '../unit/spec/specCases';
import { cppSpecCheck } from './specCheck';
import { FUZZ_RUNS, FUZZ_SEED, mutatedSpec, mutatedText } from '../unit/spec/specFuzz';
import { loadNodeModule, terminateThreads } from './nodeModule';

let mod: PipelabModule;
beforeAll(async () => {
  mod = await loadNodeModule(1);
});
afterAll(() => terminateThreads(mod));

function agree(text: string): void {
  expect(cppSpecCheck(mod, text), text).toEqual(outcomeOf(() => parseExperimentSpecJson(text)));
}

test('mutated specs: TypeScript and C++ give the same outcome', () => {
  fc.assert(
    fc.property(mutatedSpec, (doc) => {
      agree(JSON.stringify(doc));
    }),
    { seed: FUZZ_SEED, numRuns: FUZZ_RUNS },
  );
});

test('byte-edited JSON text: TypeScript and C++ give the same outcome', () => {
  fc.assert(
    fc.property(mutatedText, (text) => {
      agree(text);
    }),
    { seed: FUZZ_SEED, numRuns: FUZZ_RUNS },
  );
});
