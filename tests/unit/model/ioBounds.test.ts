// Eq. 8–10 at the ends of the pipeline: λ_max = 1/T of the slowest serial stage, λ_upper = c/T of
// the parallel stages, λ_eu their minimum — for a static pipeline, work stealing (the threads
// share the whole work), and the two-stage runtimes with their variant and buffer pool; and the
// overlays a lesson draws from them. Each kind's module names its shape of threads.
import { expect, test } from 'vitest';
import { ioBounds as boundsOfShape } from '../../../src/model';
import { modelItemsPerSec, runtimeOf } from '../../../src/runtimes';
import { parseExperimentSpec, type ExperimentSpec } from '../../../src/spec/experimentSpec';

/** The bounds with the shape of threads the spec's kind names. */
const ioBounds = (spec: ExperimentSpec) => boundsOfShape(spec, runtimeOf(spec).model.io);

const fixed = (us: number) => ({ kind: 'fixed', us });

test('static: the serial input caps what the parallel middle stage would pass', () => {
  const spec = (c: number) =>
    parseExperimentSpec({
      runtime: 'static',
      stages: [
        { name: 'in', mode: 'serial-in-order', service: fixed(2) },
        { name: 'work', mode: 'parallel', threads: c, service: fixed(10) },
        { name: 'out', mode: 'serial-in-order', service: fixed(1) },
      ],
      items: 10,
      seed: 0,
    });
  expect(ioBounds(spec(2))).toEqual({
    lambdaMaxPerUs: 0.5,
    lambdaUpperPerUs: 0.2,
    lambdaEuPerUs: 0.2,
  });
  expect(ioBounds(spec(8)).lambdaEuPerUs).toBe(0.5);
  expect(modelItemsPerSec('lambda-max', spec(8))).toBe(500_000);
  expect(modelItemsPerSec('lambda-upper', spec(8))).toBe(800_000);
  // Case 1's closed models are for thread-per-stage runtimes only.
  expect(modelItemsPerSec('case1', spec(8))).not.toBeNull();
});

test('work stealing: every thread shares the whole work, the serial stage still caps', () => {
  const spec = parseExperimentSpec({
    runtime: 'work-stealing',
    stages: [
      { name: 'in', mode: 'serial-in-order', service: fixed(4) },
      { name: 'work', mode: 'parallel', service: fixed(16) },
    ],
    threads: 4,
    items: 10,
    seed: 0,
  });
  expect(ioBounds(spec)).toEqual({
    lambdaMaxPerUs: 0.25,
    lambdaUpperPerUs: 0.2,
    lambdaEuPerUs: 0.2,
  });
});

const output = (extra: Record<string, unknown>, formatters = 4) =>
  parseExperimentSpec({
    runtime: 'two-stage-output',
    stages: [
      { name: 'format', mode: 'parallel', threads: formatters, service: fixed(8) },
      { name: 'write', mode: 'serial-in-order', service: fixed(2) },
    ],
    items: 10,
    seed: 0,
    ...extra,
  });

test('two-stage output: N/F up to the writer’s 1/W; the pool bounds the formatters at work', () => {
  expect(ioBounds(output({}))).toEqual({
    lambdaMaxPerUs: 0.5,
    lambdaUpperPerUs: 0.5,
    lambdaEuPerUs: 0.5,
  });
  expect(ioBounds(output({}, 2)).lambdaEuPerUs).toBe(0.25);
  expect(ioBounds(output({ buffers: 2 })).lambdaUpperPerUs).toBe(0.25);
  expect(ioBounds(output({ variant: 'dual-thread' }, 1)).lambdaEuPerUs).toBe(1 / 8);
  // Serial: one thread formats, then writes — no overlap at all.
  expect(ioBounds(output({ variant: 'serial' }, 1)).lambdaEuPerUs).toBe(1 / 10);
  expect(modelItemsPerSec('case1', output({}))).toBeNull();
  expect(modelItemsPerSec('case3', output({}))).toBeNull();
});

test('two-stage input: the scan comes first and caps the readers', () => {
  const input = parseExperimentSpec({
    runtime: 'two-stage-input',
    stages: [
      { name: 'scan', mode: 'serial-in-order', service: fixed(2) },
      { name: 'read', mode: 'parallel', threads: 8, service: fixed(8) },
    ],
    items: 10,
    seed: 0,
  });
  expect(ioBounds(input)).toEqual({ lambdaMaxPerUs: 0.5, lambdaUpperPerUs: 1, lambdaEuPerUs: 0.5 });
});
