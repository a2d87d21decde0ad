// Each runtime kind's module, as shared code reads it: the views it names exist, the pipeline view
// shows what really waits between its stages, its items have its noun, an experiment given by its
// spec alone gets its views and models, it runs on its own twin, and the quantities it lists are
// the ones a lesson may check for it.
import { expect, test } from 'vitest';
import { adHocLesson } from '../../../src/lessons/adHocLesson';
import { COMPONENT_NAMES } from '../../../src/lessons/components';
import { MODEL_OVERLAYS } from '../../../src/model/overlays';
import {
  createSimulation,
  itemNoun,
  kindShows,
  modelItemsPerSec,
  RUNTIME_MODULES,
  runtimeOf,
  sizingThreads,
} from '../../../src/runtimes';
import { QUANTITY_NAMES } from '../../../src/runtimes/quantities';
import {
  parseExperimentSpec,
  RUNTIMES,
  type ExperimentSpec,
} from '../../../src/spec/experimentSpec';
import { inputMirror } from '../../../src/spec/twoStageVariants';
import { barrierSpec } from '../sim/helpers';

const fixed = (us: number) => ({ kind: 'fixed', us });
const pipeline = (runtime: string, more: Record<string, unknown> = {}) =>
  parseExperimentSpec({
    runtime,
    stages: [
      { name: 'in', mode: 'serial-in-order', service: fixed(10) },
      { name: 'work', mode: 'parallel', threads: 2, service: fixed(40) },
    ],
    items: 20,
    seed: 1,
    ...more,
  });
const phaser = (more: Record<string, unknown> = {}) =>
  parseExperimentSpec({
    runtime: 'phaser',
    stages: [
      { name: 'source', mode: 'serial-in-order', service: fixed(10), op: 'count' },
      { name: 'avg', mode: 'serial-in-order', service: fixed(10), op: 'avg' },
    ],
    streams: [{ from: ['source'], to: ['avg'] }],
    threads: 2,
    items: 10,
    seed: 1,
    ...more,
  });
const output = parseExperimentSpec({
  runtime: 'two-stage-output',
  stages: [
    { name: 'format', mode: 'parallel', threads: 3, service: fixed(10) },
    { name: 'write', mode: 'serial-in-order', service: fixed(5) },
  ],
  batchItems: 4,
  items: 40,
  seed: 1,
});
// The input end mirroring the output spec: scan, then 3 readers.
const input = inputMirror(output);
const barrier = barrierSpec(4, 3, 1000, 6, { seed: 1 });

test('every kind has a module, and what it names exists', () => {
  expect(Object.keys(RUNTIME_MODULES).sort()).toEqual([...RUNTIMES].sort());
  for (const kind of Object.values(RUNTIME_MODULES)) {
    for (const view of [...kind.views.shows, ...kind.views.adHoc.views])
      expect(COMPONENT_NAMES).toContain(view);
    for (const m of [...kind.model.overlays, ...kind.views.adHoc.models])
      expect(MODEL_OVERLAYS).toContain(m);
    for (const m of kind.views.adHoc.models) expect(kind.model.overlays).toContain(m);
    for (const q of kind.quantities.names) expect(QUANTITY_NAMES).toContain(q);
  }
});

test('the pipeline view shows what waits between stages: queue, buffers, spans, stream bound', () => {
  const capacity = (spec: ExperimentSpec) => runtimeOf(spec).views.linkCapacity(spec);
  expect(capacity(pipeline('static', { queue: { kind: 'lamport', capacity: 5 } }))).toBe(5);
  expect(capacity(pipeline('work-stealing', { queue: { kind: 'mutex', capacity: null } }))).toBe(
    null,
  );
  expect(capacity(output)).toBe(output.buffers); // the buffer pool: formatters + 2
  expect(output.buffers).toBe(5);
  expect(capacity(input)).toBe(8); // the C++ span queue: a power of two >= 2 × readers
  // A phaser spec's streams hold `bound` elements (8 by default), not the queue it carries.
  expect(capacity(phaser())).toBe(8);
  expect(capacity(phaser({ bound: 3 }))).toBe(3);
  expect(runtimeOf(pipeline('work-stealing')).views.workerPool).toBe(true);
  expect(runtimeOf(pipeline('static')).views.workerPool).toBe(false);
});

test("the barrier runtime's items are intervals; every other kind's items", () => {
  expect(itemNoun(barrier)).toBe('intervals');
  expect(RUNTIME_MODULES.barrier.nouns.done).toBe('Intervals done');
  expect(itemNoun(pipeline('static'))).toBe('items');
  expect(itemNoun(null)).toBe('items');
});

test('an experiment given by its spec alone gets its kind’s title, views and models', () => {
  const blocks = (json: object) =>
    adHocLesson(JSON.stringify(json)).blocks.map((b) => (b.kind === 'component' ? b.name : ''));
  const at = (runtime: string) => ({
    runtime,
    stages: [{ name: 'work', mode: 'parallel', threads: 2, service: fixed(40) }],
    items: 20,
    seed: 1,
  });
  expect(blocks(at('static'))).toEqual(['experiment', 'pipeline', 'timeline']);
  expect(blocks(at('work-stealing'))).toEqual(['experiment', 'pipeline', 'steals', 'timeline']);
  expect(adHocLesson(JSON.stringify(at('work-stealing'))).models).toEqual(['case3', 'ideal']);
  expect(adHocLesson(JSON.stringify(at('static'))).title).toBe('Experiment: static, 1 stages');
  const b = adHocLesson(JSON.stringify(barrier));
  expect(b.title).toBe(`Experiment: barrier, 4 threads, ${barrier.schedule} schedule`);
  expect(b.models).toEqual(['packing-bound', 'balanced']);
  expect(blocks(barrier)).toEqual(['experiment', 'packing-grid', 'timeline']);
});

test('kind-specific views draw their kinds only', () => {
  expect(kindShows(output, 'reorder')).toBe(true);
  expect(kindShows(input, 'reorder')).toBe(false);
  expect(kindShows(barrier, 'packing-grid')).toBe(true);
  expect(kindShows(pipeline('static'), 'packing-grid')).toBe(false);
  expect(kindShows(phaser(), 'stream-graph')).toBe(true);
  expect(kindShows(pipeline('work-stealing'), 'steals')).toBe(true);
});

test('each kind runs on its own twin', () => {
  // The barrier twin reports each core's computing time; the pipeline twins do not.
  expect(createSimulation(barrier).runToEnd().coreBusyUs).toHaveLength(3);
  expect(createSimulation(pipeline('static')).runToEnd().coreBusyUs).toBeUndefined();
  // Work stealing steals; a thread-per-stage pipeline never does.
  const steals = (spec: ExperimentSpec) =>
    createSimulation(spec)
      .runToEnd()
      .workers.reduce((n, w) => n + w.stealAttempts, 0);
  expect(steals(pipeline('work-stealing', { threads: 3 }))).toBeGreaterThan(0);
  expect(steals(pipeline('static'))).toBe(0);
  expect(createSimulation(output).runToEnd().completed).toBe(40);
});

test("a kind's models are the overlays it lists, over its shape of threads", () => {
  expect(modelItemsPerSec('case1', pipeline('static'))).not.toBeNull();
  expect(modelItemsPerSec('case1', pipeline('work-stealing'))).toBeNull();
  expect(modelItemsPerSec('case3', pipeline('work-stealing'))).not.toBeNull();
  expect(modelItemsPerSec('lambda-eu', barrier)).toBeNull();
  expect(modelItemsPerSec('packing-bound', barrier)).not.toBeNull();
  expect(sizingThreads(pipeline('static'))).toBe('even-split');
  expect(sizingThreads(pipeline('collapsed'))).toBe('any-split');
  expect(() => sizingThreads(barrier)).toThrow(
    'sizing is for the static, collapsed, work-stealing runtimes, not barrier',
  );
});
