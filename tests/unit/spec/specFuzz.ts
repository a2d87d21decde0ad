// Fuzzing inputs for the ExperimentSpec (fast-check): every good spec of the case table, mutated —
// a field removed, replaced by any JSON value or by a number at and just past the limits, an
// unknown field added, an array emptied or grown — for the TypeScript validator
// (tests/unit/spec/fuzz.test.ts); and the same, or their JSON text edited byte by byte, for the
// shipped wasm module (tests/wasm/spec-fuzz.test.ts).
// Runtime kinds added to the table are fuzzed with no change here. Fixed seed; PIPELAB_FUZZ_RUNS
// sets the number of runs (the long mode in README).
import fc from 'fast-check';
import { LIMITS } from '../../../src/spec/limits';
import { loadSpecCases } from './specCases';

export const FUZZ_SEED = 20261123;
export const FUZZ_RUNS = Number(process.env.PIPELAB_FUZZ_RUNS ?? 300);

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The good specs of the case table, as the mutations' starting points. */
export const goodSpecs: Json[] = loadSpecCases()
  .filter((c) => c.spec !== undefined)
  .map((c) => (c.input ?? c.spec) as Json);

/** Every path to a value inside `v` (arrays by index), the root included as []. */
function paths(v: Json, at: Array<string | number> = []): Array<Array<string | number>> {
  const here = [at];
  if (Array.isArray(v)) return [...here, ...v.flatMap((x, i) => paths(x, [...at, i]))];
  if (v && typeof v === 'object')
    return [...here, ...Object.entries(v).flatMap(([k, x]) => paths(x, [...at, k]))];
  return here;
}

function getAt(v: Json, path: Array<string | number>): Json {
  return path.reduce<Json>((node, k) => (node as Record<string, Json>)[k as string], v);
}

/** Numbers a validator must get right: every limit, one past it, fractions, the extremes. */
const edgeNumbers = [
  ...Object.values(LIMITS).flatMap(([lo, hi]) => [lo, hi, lo - 1, hi + 1, lo + 0.5]),
  0,
  -0,
  -1,
  0.1,
  1e21,
  -1e21,
  Number.MAX_SAFE_INTEGER,
  2 ** 32,
];

const anyValue: fc.Arbitrary<Json> = fc.oneof(
  fc.jsonValue() as fc.Arbitrary<Json>,
  fc.constantFrom(...edgeNumbers),
  fc.string({ unit: 'binary', maxLength: 40 }),
);

type Mutation = (doc: Json) => Json;

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.tuple(fc.nat(), anyValue).map(([n, value]): Mutation => (doc) => {
    const all = paths(doc).filter((p) => p.length > 0);
    if (all.length === 0) return value;
    const path = all[n % all.length];
    const parent = getAt(doc, path.slice(0, -1)) as Record<string, Json>;
    parent[path[path.length - 1] as string] = value;
    return doc;
  }),
  fc.nat().map((n): Mutation => (doc) => {
    const keyed = paths(doc).filter((p) => typeof p[p.length - 1] === 'string');
    if (keyed.length === 0) return doc;
    const path = keyed[n % keyed.length];
    delete (getAt(doc, path.slice(0, -1)) as Record<string, Json>)[path[path.length - 1]];
    return doc;
  }),
  fc
    .tuple(fc.nat(), fc.string({ minLength: 1, maxLength: 12 }), anyValue)
    .map(([n, key, value]): Mutation => (doc) => {
      const objects = paths(doc).filter((p) => {
        const v = getAt(doc, p);
        return v !== null && typeof v === 'object' && !Array.isArray(v);
      });
      if (objects.length === 0) return doc;
      (getAt(doc, objects[n % objects.length]) as Record<string, Json>)[key] = value;
      return doc;
    }),
  fc.tuple(fc.nat(), fc.boolean()).map(([n, empty]): Mutation => (doc) => {
    const arrays = paths(doc).filter((p) => Array.isArray(getAt(doc, p)));
    if (arrays.length === 0) return doc;
    const a = getAt(doc, arrays[n % arrays.length]) as Json[];
    if (empty) a.length = 0;
    else if (a.length) for (let i = 0; i < 20; i++) a.push(structuredClone(a[0]));
    return doc;
  }),
);

/** One of `bases` with up to three mutations (none sometimes: the good ones must pass too). */
export function mutatedFrom(bases: Json[]): fc.Arbitrary<Json> {
  return fc
    .tuple(fc.constantFrom(...bases), fc.array(mutation, { maxLength: 3 }))
    .map(([base, ms]) => ms.reduce((doc, m) => m(doc), structuredClone(base)));
}

/** A good spec of the case table, mutated. */
export const mutatedSpec: fc.Arbitrary<Json> = mutatedFrom(goodSpecs);

/** JSON text of a good spec with bytes inserted, deleted or replaced: syntax errors at every
 * position, stray escapes, truncation. */
export const mutatedText: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom(...goodSpecs).map((s) => JSON.stringify(s)),
    fc.array(
      fc.tuple(
        fc.nat(),
        fc.constantFrom('insert', 'delete', 'replace'),
        fc.constantFrom(...'{}[]:,"\\ 0123456789.eE+-tfnulx\u00e9\n'.split('')),
      ),
      { minLength: 1, maxLength: 3 },
    ),
  )
  // Edits by code point: a spec is UTF-8 text, which cannot hold half a surrogate pair (a lone
  // surrogate reaches the module only escaped, as \udXXXX).
  .map(([text, edits]) =>
    edits
      .reduce((chars, [n, op, ch]) => {
        const i = chars.length ? n % chars.length : 0;
        if (op === 'insert') return [...chars.slice(0, i), ch, ...chars.slice(i)];
        if (op === 'delete') return [...chars.slice(0, i), ...chars.slice(i + 1)];
        return [...chars.slice(0, i), ch, ...chars.slice(i + 1)];
      }, Array.from(text))
      .join(''),
  );
