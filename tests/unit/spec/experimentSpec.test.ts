// What only the TypeScript value entry meets (lesson front matter and URL state are values, not
// JSON text): undefined as absent, NaN, and the exports the lesson loader builds on. Everything a
// JSON text can say is in the shared case table (specCases.test.ts).
import { describe, expect, it } from 'vitest';
import { parseExperimentSpec, SpecError } from '../../../src/spec/experimentSpec';
import { SpecError as FieldSpecError, readInteger } from '../../../src/spec/specFields';

const base = () => ({
  runtime: 'static',
  stages: [{ name: 'a', mode: 'parallel', threads: 2, service: { kind: 'fixed', us: 5 } }],
  items: 10,
  seed: 1,
});

function errorOf(json: unknown): SpecError {
  try {
    parseExperimentSpec(json);
  } catch (e) {
    if (e instanceof SpecError) return e;
    throw e;
  }
  throw new Error('expected a SpecError');
}

describe('parseExperimentSpec on values', () => {
  it('takes an undefined field as absent', () => {
    const spec = parseExperimentSpec({ ...base(), queue: undefined, cores: undefined });
    expect(spec.queue).toEqual({ kind: 'batch', capacity: 16 });
    expect('cores' in spec).toBe(false);
    expect(errorOf({ ...base(), seed: undefined }).message).toBe('seed: missing (required)');
  });

  it('rejects NaN, which JSON cannot spell but YAML can', () => {
    const nan = {
      ...base(),
      stages: [{ ...base().stages[0], service: { kind: 'fixed', us: NaN } }],
    };
    expect(errorOf(nan).message).toBe(
      'stages[0].service.us: NaN is not a number (allowed 0..1000000)',
    );
    expect(errorOf({ ...base(), items: NaN }).message).toBe(
      'items: NaN is not an integer (allowed 1..100000000)',
    );
  });

  it('throws one SpecError class from both modules, with the path apart', () => {
    const e = errorOf({ ...base(), items: 0 });
    expect(e).toBeInstanceOf(FieldSpecError);
    expect(e.path).toBe('items');
    expect(() => readInteger(0, 'controls[0].max', 1, 8)).toThrow(
      'controls[0].max: 0 is out of range (allowed 1..8)',
    );
  });
});
