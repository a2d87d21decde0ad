// ExperimentSpec validator: defaults from contracts/spec.md, errors that name the field and range.
import { describe, expect, it } from 'vitest';
import { parseExperimentSpec, SpecError } from '../../../src/spec/experimentSpec';

const stage = (extra: Record<string, unknown> = {}) => ({
  name: 'work',
  mode: 'parallel',
  threads: 2,
  service: { kind: 'fixed', us: 100 },
  ...extra,
});

const base = () => ({
  runtime: 'static',
  stages: [{ name: 'input', mode: 'serial-in-order', service: { kind: 'fixed', us: 10 } }, stage()],
  items: 100,
  seed: 7,
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

describe('parseExperimentSpec', () => {
  it('applies the documented defaults', () => {
    const spec = parseExperimentSpec(base());
    expect(spec.threads).toBe(3);
    expect(spec.tokens).toBe(3);
    expect(spec.queue).toEqual({ kind: 'batch', capacity: 16 });
    expect(spec.stages[0].threads).toBe(1);
    expect(spec.cores).toBeUndefined();
  });

  it('defaults work-stealing threads to 1 and tokens to threads', () => {
    const spec = parseExperimentSpec({ ...base(), runtime: 'work-stealing' });
    expect(spec.threads).toBe(1);
    const ws = parseExperimentSpec({ ...base(), runtime: 'work-stealing', threads: 8 });
    expect(ws.tokens).toBe(8);
  });

  it('keeps an explicit null capacity as unbounded', () => {
    const spec = parseExperimentSpec({ ...base(), queue: { kind: 'mutex', capacity: null } });
    expect(spec.queue).toEqual({ kind: 'mutex', capacity: null });
  });

  it('parses every service kind', () => {
    const services = [
      { kind: 'exponential', meanUs: 5 },
      { kind: 'uniform', minUs: 1, maxUs: 3 },
      { kind: 'bimodal', fastUs: 1, slowUs: 9, slowFraction: 0.25 },
      { kind: 'kernel', name: 'matrix', size: 16 },
    ];
    for (const service of services) {
      const spec = parseExperimentSpec({ ...base(), stages: [stage({ service })] });
      expect(spec.stages[0].service).toEqual(service);
    }
  });

  it.each([
    [
      { stages: [stage(), stage({ threads: 0 })] },
      'stages[1].threads',
      'stages[1].threads: 0 is out of range (allowed 1..64)',
    ],
    [
      { stages: [stage({ mode: 'serial-in-order', threads: 2 })] },
      'stages[0].threads',
      '2 is out of range (allowed 1 for a serial-in-order stage)',
    ],
    [
      { runtime: 'dataflow' },
      'runtime',
      'runtime: "dataflow" is not one of static | collapsed | work-stealing',
    ],
    [{ stages: [] }, 'stages', '0 stages is out of range (allowed 1..16)'],
    [{ items: 0 }, 'items', 'items: 0 is out of range (allowed 1..100000000)'],
    [{ items: 1.5 }, 'items', 'is not an integer'],
    [{ seed: -1 }, 'seed', 'seed: -1 is out of range (allowed 0..4294967295)'],
    [{ threads: 4 }, 'threads', 'threads: 4 differs from the sum of stage threads (allowed 3)'],
    [{ tokens: 5000 }, 'tokens', 'tokens: 5000 is out of range (allowed 1..4096)'],
    [{ cores: 300 }, 'cores', 'cores: 300 is out of range (allowed 1..256)'],
    [
      { queue: { kind: 'batch', capacity: 0 } },
      'queue.capacity',
      '0 is out of range (allowed 1..65536)',
    ],
    [{ queue: { kind: 'ring', capacity: 4 } }, 'queue.kind', 'is not one of'],
    [{ extra: 1 }, 'extra', 'extra: unknown field'],
    [{ stages: [stage({ nmae: 'x' })] }, 'stages[0].nmae', 'unknown field'],
    [{ stages: [stage({ name: '' })] }, 'stages[0].name', 'has 0 bytes (allowed 1..32)'],
    [
      { stages: [stage({ service: { kind: 'fixed', us: -1 } })] },
      'stages[0].service.us',
      '-1 is out of range (allowed 0..1000000)',
    ],
    [
      { stages: [stage({ service: { kind: 'fixed', meanUs: 1 } })] },
      'stages[0].service.meanUs',
      'unknown field',
    ],
    [
      { stages: [stage({ service: { kind: 'uniform', minUs: 5, maxUs: 1 } })] },
      'stages[0].service.minUs',
      'above maxUs',
    ],
    [
      {
        stages: [stage({ service: { kind: 'bimodal', fastUs: 1, slowUs: 2, slowFraction: 1.5 } })],
      },
      'stages[0].service.slowFraction',
      '1.5 is out of range (allowed 0..1)',
    ],
    [
      { stages: [stage({ service: { kind: 'kernel', name: 'sort', size: 1 } })] },
      'stages[0].service.name',
      'is not one of',
    ],
    [
      { stages: [stage({ service: { kind: 'exponential' } })] },
      'stages[0].service.meanUs',
      'missing (required)',
    ],
  ])('rejects %j at its path', (patch, path, message) => {
    const err = errorOf({ ...base(), ...patch });
    expect(err.path).toBe(path);
    expect(err.message).toContain(message);
  });

  it('rejects missing required fields and non-objects', () => {
    const noSeed: Record<string, unknown> = base();
    delete noSeed.seed;
    expect(errorOf(noSeed).message).toBe('seed: missing (required)');
    expect(errorOf([1]).message).toContain('is not an object');
    expect(errorOf(null).path).toBe('');
  });

  it('applies the serial-stage thread rule under work-stealing too (as the C++ parser)', () => {
    const ws = { ...base(), runtime: 'work-stealing' };
    const serialTwo = { ...ws, stages: [stage({ mode: 'serial-in-order', threads: 3 })] };
    expect(errorOf(serialTwo).path).toBe('stages[0].threads');
    expect(parseExperimentSpec({ ...ws, stages: [stage({ threads: 3 })] }).stages[0].threads).toBe(
      3,
    );
    expect(errorOf({ ...ws, stages: [stage({ threads: 65 })] }).path).toBe('stages[0].threads');
  });

  it('requires both queue fields once a queue is given', () => {
    expect(errorOf({ ...base(), queue: { kind: 'mutex' } }).message).toBe(
      'queue.capacity: missing (required; null = unbounded)',
    );
    expect(errorOf({ ...base(), queue: { capacity: 4 } }).message).toBe(
      'queue.kind: missing (required)',
    );
  });

  it('counts name length in UTF-8 bytes', () => {
    expect(errorOf({ ...base(), stages: [stage({ name: 'é'.repeat(17) })] }).message).toContain(
      'has 34 bytes (allowed 1..32)',
    );
  });
});
