// The overlays a lesson draws by name (src/model/overlays.ts): which apply to which spec (closed
// models need bounded queues, the open one unbounded ones, the exact chain a small one without
// dedup's shapes), items OUT per second for emitting stages, and dedup's visit ratios
// (src/model/serviceTime.ts) as the demand each station sees per item into the pipeline.
import { describe, expect, test } from 'vitest';
import { boundedPipeline } from '../../../src/model/boundedPipeline';
import { MODEL_OVERLAYS } from '../../../src/model/overlays';
import { modelItemsPerSec } from '../../../src/runtimes';
import { stageInputs, visitRatios } from '../../../src/model/serviceTime';
import { closedStaticModel, openStaticModel } from '../../../src/model/staticModels';
import { workStealingModel } from '../../../src/model/workStealing';
import {
  outputsPerItem,
  parseExperimentSpec,
  type ExperimentSpec,
} from '../../../src/spec/experimentSpec';

const exp = (meanUs: number) => ({ kind: 'exponential', meanUs });

function spec(json: Record<string, unknown>): ExperimentSpec {
  return parseExperimentSpec({ items: 100, seed: 1, ...json });
}

const three = [
  { name: 'in', mode: 'serial-in-order', service: exp(2) },
  { name: 'work', mode: 'parallel', threads: 2, service: exp(6) },
  { name: 'out', mode: 'serial-in-order', service: exp(1) },
];
// Dedup's shape (seed 000 §2.2): anchoring emits 4 items per item, 40% of them skip compress.
const dedup = [
  { name: 'in', mode: 'serial-in-order', service: exp(100) },
  { name: 'anchor', mode: 'parallel', threads: 2, emits: 4, service: exp(40) },
  { name: 'hash', mode: 'parallel', threads: 2, service: exp(10) },
  { name: 'compress', mode: 'parallel', threads: 2, bypass: 0.4, service: exp(50) },
  { name: 'out', mode: 'serial-in-order', service: exp(5) },
];

const closed = spec({ runtime: 'static', stages: three, queue: { kind: 'mutex', capacity: 3 } });
const open = spec({ runtime: 'static', stages: three, queue: { kind: 'mutex', capacity: null } });
const stealing = spec({ runtime: 'work-stealing', stages: three, threads: 4, tokens: 2 });

/** Eq. 8–10's bounds at the ends of the pipeline apply to every runtime kind (lesson 4). */
const IO_BOUNDS = ['lambda-max', 'lambda-upper', 'lambda-eu'];
/** The queueing models that apply to a spec (the I/O bounds, which always do, left out). */
const applies = (s: ExperimentSpec) =>
  MODEL_OVERLAYS.filter(
    (overlay) => !IO_BOUNDS.includes(overlay) && modelItemsPerSec(overlay, s) !== null,
  );

describe('which overlay applies to which spec', () => {
  test('bounded queues: Case 1 in both readings and the exact chain; unbounded: Case 2 alone', () => {
    expect(applies(closed)).toEqual(['case1', 'case1-per-server', 'exact']);
    expect(applies(open)).toEqual(['case2']);
    expect(applies({ ...closed, runtime: 'collapsed' })).toEqual([
      'case1',
      'case1-per-server',
      'exact',
    ]);
  });

  test('work stealing: Case 3, before and after our cap, and Ideal', () => {
    expect(applies(stealing)).toEqual(['case3', 'ideal', 'case3-unclamped']);
    const ws = workStealingModel(stealing);
    expect(modelItemsPerSec('case3', stealing)).toBeCloseTo(ws.throughputPerUs * 1e6, 6);
    expect(modelItemsPerSec('case3-unclamped', stealing)).toBeCloseTo(ws.rawPerUs * 1e6, 6);
    expect(ws.rawPerUs).toBeGreaterThanOrEqual(ws.throughputPerUs);
  });

  test('the exact overlay is the bounded chain itself, and gives way when the chain is large', () => {
    const chain = boundedPipeline({
      stages: [
        { serviceTime: 2, servers: 1 },
        { serviceTime: 6, servers: 2 },
        { serviceTime: 1, servers: 1 },
      ],
      buffers: 3,
    }).throughput;
    expect(modelItemsPerSec('exact', closed)).toBeCloseTo(chain * 1e6, 6);
    // Six stages of 8 threads with 20 slots each: far more states than the page solves.
    const big = spec({
      runtime: 'static',
      stages: [
        three[0],
        ...[1, 2, 3, 4].map((i) => ({ ...three[1], name: `p${i}`, threads: 8 })),
        three[2],
      ],
      queue: { kind: 'mutex', capacity: 20 },
    });
    expect(modelItemsPerSec('exact', big)).toBeNull();
    expect(modelItemsPerSec('case1-per-server', big)).not.toBeNull();
  });

  test('emitting or bypassed stages have no exact chain (it has no such moves)', () => {
    const bounded = spec({
      runtime: 'static',
      stages: dedup,
      queue: { kind: 'mutex', capacity: 4 },
    });
    expect(applies(bounded)).toEqual(['case1', 'case1-per-server']);
  });

  test("Eq. 8–10's bounds apply to every spec", () => {
    for (const s of [closed, open, stealing])
      for (const overlay of IO_BOUNDS)
        expect(modelItemsPerSec(overlay as (typeof MODEL_OVERLAYS)[number], s)).not.toBeNull();
  });
});

describe("dedup's shapes as visit ratios", () => {
  const open4 = spec({
    runtime: 'static',
    stages: dedup,
    queue: { kind: 'mutex', capacity: null },
  });

  test('items reaching and served at each stage per item into the pipeline', () => {
    expect(visitRatios(open4)).toEqual([
      { arriving: 1, served: 1 },
      { arriving: 1, served: 1 },
      { arriving: 4, served: 4 },
      { arriving: 4, served: expect.closeTo(2.4, 12) as number },
      { arriving: 4, served: 4 },
    ]);
    expect(outputsPerItem(open4)).toBe(4);
  });

  test("a station's demand is its service time times the items it serves", () => {
    expect(stageInputs(open4).map((s) => s.serviceTimeUs)).toEqual([
      100,
      40,
      40,
      expect.closeTo(120, 9) as number,
      20,
    ]);
    // Collapsed: the parallel middle is one station, its demands summed, its threads too.
    const fused = stageInputs({ ...open4, runtime: 'collapsed' });
    expect(fused).toHaveLength(3);
    expect(fused[1].serviceTimeUs).toBeCloseTo(40 + 40 + 120, 9);
    expect(fused[1].servers).toBe(6);
  });

  test('Case 2 counts items out: the input rate times what each item becomes', () => {
    const model = openStaticModel(open4);
    // The input stage feeds 1 item per 100 µs; compress's 120 µs over 2 threads keeps up (60 µs).
    expect(model.stable).toBe(true);
    expect(model.throughputPerUs).toBeCloseTo(1 / 100, 12);
    expect(modelItemsPerSec('case2', open4)).toBeCloseTo(4e4, 3);
    // One thread at compress cannot (120 µs > 100 µs per item in): the queue before it grows.
    const starved = {
      ...open4,
      stages: open4.stages.map((s, i) => (i === 3 ? { ...s, threads: 1 } : s)),
    };
    const slow = openStaticModel(starved);
    expect(slow.stable).toBe(false);
    expect(slow.throughputPerUs).toBeCloseTo(1 / 120, 12);
  });

  test('without emits or bypass the demand is the service time', () => {
    expect(stageInputs(closed).map((s) => s.serviceTimeUs)).toEqual([2, 6, 1]);
    expect(modelItemsPerSec('case1-per-server', closed)).toBeCloseTo(
      closedStaticModel(closed).throughputPerUs * 1e6,
      6,
    );
  });
});
