// The paper's models over an ExperimentSpec: Case 1–3, Ideal, sizing, and the seed models.
import { describe, expect, it } from 'vitest';
import {
  barrierIntervalRates,
  batchQueueSpeedup,
  boundedPipeline,
  closedStaticModel,
  idealModel,
  littlesLaw,
  mmc,
  openStaticModel,
  predictedRunTimeUs,
  sizing as sizingAs,
  threadPacking,
  workStealingModel,
} from '../../../src/model';
import type { SizingOptions } from '../../../src/model/sizing';
import { barrierWork } from '../../../src/model/seedModels';
import { modelItemsPerSec, sizingThreads } from '../../../src/runtimes';
import { parseExperimentSpec, type ExperimentSpec } from '../../../src/spec/experimentSpec';
import { expectClose } from './vectors';

/** Sizing with the threads the spec's kind sizes (its module: static splits evenly, collapsed
 * any way, work stealing a pool). */
const sizing = (spec: ExperimentSpec, options?: SizingOptions) =>
  sizingAs(spec, sizingThreads(spec), options);
import { barrierSpec } from '../sim/helpers';

const exp = (meanUs: number) => ({ kind: 'exponential', meanUs });

function ferretLike(extra: Record<string, unknown> = {}): ExperimentSpec {
  return parseExperimentSpec({
    runtime: 'static',
    stages: [
      { name: 'in', mode: 'serial-in-order', service: exp(1) },
      { name: 'mid', mode: 'parallel', threads: 8, service: exp(8) },
      { name: 'out', mode: 'serial-in-order', service: exp(0.5) },
    ],
    queue: { kind: 'mutex', capacity: 4 },
    items: 1000,
    seed: 1,
    ...extra,
  });
}

describe('Case 1 (closed static, Eq. 1–3)', () => {
  it('gives 0.25 (T_arr = max T_ser) or 0.44 (max T_ser/c), far below the exact 0.89', () => {
    const spec = ferretLike();
    const paper = closedStaticModel(spec, { reading: 'max-service' });
    const perServer = closedStaticModel(spec);
    expect(paper.arrivalTimeUs).toBe(8);
    expect(perServer.arrivalTimeUs).toBe(1);
    expect(paper.throughputPerUs).toBeCloseTo(0.25, 6);
    expect(perServer.throughputPerUs).toBeCloseTo(4 / 9, 6);
    expect(paper.bottleneckStage).toBe(1);
    expect(perServer.throughputPerUs).toBe(
      closedStaticModel(spec, { reading: 'max-service-per-server' }).throughputPerUs,
    );
    const exact = boundedPipeline({
      stages: spec.stages.map((s, i) => ({ serviceTime: [1, 8, 0.5][i], servers: s.threads })),
      buffers: 4,
    });
    expect(exact.throughput).toBeGreaterThan(2 * perServer.throughputPerUs);
  });

  it('models a collapsed spec with fused stations, above the imbalanced static pipeline', () => {
    const stages = [5, 50, 300, 50, 300, 5].map((us, i) => ({
      name: `s${i}`,
      mode: i === 0 || i === 5 ? 'serial-in-order' : 'parallel',
      service: { kind: 'fixed', us },
    }));
    const json = { stages, queue: { kind: 'mutex', capacity: 64 }, items: 100, seed: 1 };
    const fixedStages = closedStaticModel(parseExperimentSpec({ ...json, runtime: 'static' }));
    const collapsed = closedStaticModel(parseExperimentSpec({ ...json, runtime: 'collapsed' }));
    expect(fixedStages.stageThroughputPerUs).toHaveLength(6);
    expect(collapsed.stageThroughputPerUs).toHaveLength(3);
    expect(fixedStages.throughputPerUs).toBeLessThan(1 / 300);
    expect(collapsed.throughputPerUs).toBeGreaterThan(1.5 * fixedStages.throughputPerUs);
    expect(collapsed.throughputPerUs).toBeLessThan(4 / 700);
  });

  it('needs a bounded queue', () => {
    expect(() =>
      closedStaticModel(ferretLike({ queue: { kind: 'mutex', capacity: null } })),
    ).toThrow('invalid queue.capacity: null');
  });
});

describe('Case 2 (open, Eq. 4)', () => {
  it('is unstable when a stage runs at load 1 and sums M/M/c latencies otherwise', () => {
    expect(openStaticModel(ferretLike()).stable).toBe(false);
    const r = openStaticModel(ferretLike(), { arrivalRatePerUs: 0.5 });
    expect(r.stable).toBe(true);
    expect(r.throughputPerUs).toBe(0.5);
    const w = [1, 8, 0.5].map((s, i) =>
      mmc({ arrivalRate: 0.5, serviceTime: s, servers: [1, 8, 1][i] }),
    );
    expectClose(
      r.latencyUs,
      w.reduce((sum, x) => sum + x.meanResponse, 0),
    );
  });
});

function wsSpec(stagesUs: number[], serialEnds: boolean, threads: number, tokens: number) {
  return parseExperimentSpec({
    runtime: 'work-stealing',
    stages: stagesUs.map((us, i) => ({
      name: `s${i}`,
      mode: serialEnds && (i === 0 || i === stagesUs.length - 1) ? 'serial-in-order' : 'parallel',
      service: { kind: 'fixed', us },
    })),
    threads,
    tokens,
    items: 1000,
    seed: 1,
  });
}

describe('Case 3 (work stealing, Eq. 5–7) and Ideal', () => {
  it('caps at the serial I/O stage (Eq. 7) and keeps the raw value', () => {
    const r = workStealingModel(wsSpec([100, 400, 10], true, 8, 64));
    expectClose(r.ioCapPerUs, 1 / 100);
    expectClose(r.throughputPerUs, 1 / 100);
    expect(r.rawPerUs).toBeGreaterThan(r.throughputPerUs);
  });

  it('never exceeds the physical limit npTh/ΣT_ser, with cores taken into account', () => {
    for (const tokens of [8, 16, 32, 64, 256]) {
      const r = workStealingModel(wsSpec([10, 50, 10], false, 8, tokens));
      expect(r.throughputPerUs).toBeLessThanOrEqual(8 / 70 + 1e-15);
    }
    const fewCores = { ...wsSpec([10, 50, 10], false, 8, 64), cores: 2 };
    expect(workStealingModel(fewCores).throughputPerUs).toBeLessThanOrEqual(2 / 70 + 1e-15);
  });

  it('starves threads with fewer tokens than threads, and grows with tokens', () => {
    const spec = wsSpec([10, 50, 10], false, 8, 8);
    const few = workStealingModel(spec, { tokens: 2 });
    expect(few.threads.filter((t) => t.tokens === 0)).toHaveLength(6);
    let previous = 0;
    for (const tokens of [1, 2, 4, 8, 16, 32]) {
      const x = workStealingModel(spec, { tokens }).throughputPerUs;
      expect(x).toBeGreaterThan(previous);
      previous = x;
    }
  });

  it('Step 1 busy fraction p_j equals the finite-source utilization (c = 1)', () => {
    const r = workStealingModel(wsSpec([10, 50, 10], false, 4, 6));
    for (const t of r.threads) expectClose(t.busy, (t.lambda * 70) / 1, 1e-12);
  });

  it('Ideal is the M/M/npTh/ntokens/ntokens queue', () => {
    const ideal = idealModel(wsSpec([10, 50, 10], false, 8, 8), { tokens: 4096 });
    expectClose(ideal, 8 / 70, 1e-6);
    expect(idealModel(wsSpec([10, 50, 10], false, 8, 8))).toBeLessThan(8 / 70);
  });

  it('needs a measured mean for kernel stages', () => {
    const spec = parseExperimentSpec({
      runtime: 'work-stealing',
      stages: [
        { name: 'k', mode: 'parallel', service: { kind: 'kernel', name: 'matrix', size: 8 } },
      ],
      items: 10,
      seed: 1,
    });
    expect(() => workStealingModel(spec)).toThrow('invalid measuredServiceUs (kernel matrix)');
    expect(workStealingModel(spec, { measuredServiceUs: [20] }).physicalCapPerUs).toBe(1 / 20);
  });
});

describe('sizing (Eq. 8–10)', () => {
  it('N_optimal is the first queue size within the tolerance of λ_eu', () => {
    const spec = ferretLike();
    const r = sizing(spec, { tolerance: 0.05 });
    expect(r.model).toBe('case1');
    expect(r.upperPerUs).toEqual([1, 1, 2]);
    expect(r.lambdaMaxPerUs).toBe(1);
    expect(r.ceilingPerUs).toBe(1);
    const at = (n: number) => closedStaticModel(spec, { queueSize: n }).throughputPerUs;
    expect(at(r.nOptimal!)).toBeGreaterThanOrEqual(0.95);
    expect(at(r.nOptimal! - 1)).toBeLessThan(0.95);
  });

  it('c_optimal is solved through Eq. 3 at the given N, not read off the bound c/T = λ_max', () => {
    const spec = ferretLike();
    const rate = (c: number, n: number) =>
      closedStaticModel(
        { ...spec, stages: spec.stages.map((s, i) => (i === 1 ? { ...s, threads: c } : s)) },
        { queueSize: n },
      ).throughputPerUs;
    // The bound alone says 8 threads (8/8 = λ_max) at any N; Eq. 3 agrees at N = 20, needs one
    // more at N = 9, and no thread count gets there at N = 8 or fewer.
    const r = sizing(spec, { size: 9 });
    expect(r.size).toBe(9);
    expect(r.cOptimal).toBe(9);
    expect(rate(9, 9)).toBeGreaterThanOrEqual(0.98);
    expect(rate(8, 9)).toBeLessThan(0.98);
    expect(rate(8, 20)).toBeGreaterThanOrEqual(0.98);
    expect(sizing(spec, { size: 20 }).cOptimal).toBe(8);
    expect(r.atOptimumPerUs).toBe(rate(9, 9));
    expect(r.cOptimalPerStage).toBe(r.cOptimal);
    // With the spec's 4 tokens no thread count gets there (at most N/(T_arr + T_ser) = 4/9).
    const four = sizing(spec);
    expect(four.size).toBe(4);
    expect(four.cOptimal).toBeNull();
    expect(four.why).toEqual(['no npTh up to 64 brings λe within 2% of λ_max at N = 4']);
  });

  it('thread-per-stage specs step npTh by the parallel stages (c_i = npTh/npstages)', () => {
    const spec = parseExperimentSpec({
      runtime: 'static',
      stages: [
        { name: 'in', mode: 'serial-in-order', service: exp(1) },
        { name: 'a', mode: 'parallel', service: exp(2) },
        { name: 'b', mode: 'parallel', service: exp(6) },
        { name: 'out', mode: 'serial-in-order', service: exp(0.5) },
      ],
      queue: { kind: 'mutex', capacity: 20 },
      items: 10,
      seed: 1,
    });
    const r = sizing(spec);
    expect(r.cOptimal! % 2).toBe(0);
    expect(r.cOptimalPerStage).toBe(r.cOptimal! / 2);
    const collapsed = sizing({ ...spec, runtime: 'collapsed' });
    expect(collapsed.cOptimal!).toBeLessThan(r.cOptimal!);
  });

  it('an open pipeline has no N; its c_optimal reaches λ_max through Case 2', () => {
    const r = sizing(ferretLike({ queue: { kind: 'mutex', capacity: null } }));
    expect(r.model).toBe('case2');
    expect(r.nOptimal).toBeNull();
    expect(r.size).toBeNull();
    expect(r.why).toEqual(['an open pipeline (unbounded queues) has no N to size']);
    expect(r.cOptimal).toBe(8);
  });

  it('says why c_optimal does not exist without a serial stage', () => {
    const r = sizing(
      parseExperimentSpec({
        runtime: 'static',
        stages: [{ name: 'p', mode: 'parallel', threads: 2, service: exp(3) }],
        items: 10,
        seed: 1,
      }),
    );
    expect(r.cOptimal).toBeNull();
    expect(r.why).toContain(
      'no serial stage: nothing sets λ_max, so there is no I/O bound to reach',
    );
  });

  it('work stealing sizes tokens per thread (the paper counts N per thread) and threads', () => {
    const spec = wsSpec([100, 400, 10], true, 8, 8);
    const r = sizing(spec, { tolerance: 0.01 });
    expect(r.model).toBe('case3');
    expect(r.lambdaMaxPerUs).toBe(1 / 100);
    expect(r.ceilingPerUs).toBe(1 / 100);
    const n = r.nOptimal!;
    const at = (perThread: number) =>
      workStealingModel(spec, { tokens: perThread * 8 }).throughputPerUs;
    expect(at(n)).toBeGreaterThanOrEqual(0.99 / 100);
    expect(at(n - 1)).toBeLessThan(0.99 / 100);
    expect(r.size).toBe(1);
    const threads = (t: number) =>
      workStealingModel(spec, { threads: t, tokens: t * r.size! }).throughputPerUs;
    expect(threads(r.cOptimal!)).toBeGreaterThanOrEqual(0.99 / 100);
    expect(threads(r.cOptimal! - 1)).toBeLessThan(0.99 / 100);
  });

  it('rejects a tolerance outside (0, 0.5]', () => {
    expect(() => sizing(ferretLike(), { tolerance: 0 })).toThrow('invalid tolerance: 0');
  });
});

describe('seed models', () => {
  it('BatchQueue speedup T_seq/(T_seq/n + T_comm) and its bound', () => {
    const r = batchQueueSpeedup({ sequentialTime: 10, commTime: 1, cores: 4 });
    expectClose(r.speedup, 10 / 3.5);
    expect(r.limit).toBe(10);
    expect(() => batchQueueSpeedup({ sequentialTime: 10, commTime: 1, cores: 0 })).toThrow(
      'invalid cores: 0 (allowed integer 1..256)',
    );
  });

  it('predicts run time as items over throughput', () => {
    expect(predictedRunTimeUs({ items: 1000, throughputPerUs: 0.01 })).toBe(100_000);
    expect(() => predictedRunTimeUs({ items: 10, throughputPerUs: 0 })).toThrow(
      'invalid throughputPerUs: 0',
    );
  });

  it("Little's law fills in the missing quantity", () => {
    expect(littlesLaw({ throughput: 2, meanResponse: 3 }).meanInSystem).toBe(6);
    expect(littlesLaw({ throughput: 2, meanInSystem: 6 }).meanResponse).toBe(3);
    expect(littlesLaw({ meanResponse: 3, meanInSystem: 6 }).throughput).toBe(2);
    expect(() => littlesLaw({ throughput: 2 })).toThrow('invalid arguments: throughput');
  });

  it('thread packing: 16 threads on 15 cores → 1.875, on 7 → 1.3125', () => {
    expect(threadPacking({ threads: 16, cores: 15 }).slowdownVsReduction).toBe(1.875);
    expect(threadPacking({ threads: 16, cores: 7 }).slowdownVsReduction).toBe(1.3125);
    expect(threadPacking({ threads: 8, cores: 8 }).slowdownVsReduction).toBe(1);
  });

  it('thread packing: the imbalance factor is max/min threads per core (2 at 15, 1.5 at 7)', () => {
    expect(threadPacking({ threads: 16, cores: 15 }).imbalanceFactor).toBe(2);
    expect(threadPacking({ threads: 16, cores: 7 }).imbalanceFactor).toBe(1.5);
    expect(threadPacking({ threads: 16, cores: 16 }).imbalanceFactor).toBe(1);
    expect(threadPacking({ threads: 3, cores: 8 }).imbalanceFactor).toBe(1);
    expect(threadPacking({ threads: 3, cores: 8 }).slowdownVsReduction).toBe(1);
    expect(() => threadPacking({ threads: 0, cores: 2 })).toThrow('invalid threads: 0');
  });

  it('barrier interval rates: perfect balance and the packing bound, intervals per µs', () => {
    const spec = barrierSpec(16, 15, 3000, 10, { seed: 1 });
    const rates = barrierIntervalRates(barrierWork(spec));
    expect(rates.balanced).toBeCloseTo(15 / 48_000, 15);
    expect(rates.balanced / rates.packingBound).toBeCloseTo(1.875, 12);
    expect(modelItemsPerSec('packing-bound', spec)).toBeCloseTo(1e6 / 6000, 9);
    expect(modelItemsPerSec('case1', spec)).toBeNull();
    expect(modelItemsPerSec('case3', spec)).toBeNull();
    // An interval's work is the one stage's fixed service: no other service gives one.
    const exponential = { ...spec.stages[0], service: { kind: 'exponential' as const, meanUs: 1 } };
    expect(() => barrierIntervalRates(barrierWork({ ...spec, stages: [exponential] }))).toThrow(
      'invalid interval work (µs): NaN',
    );
  });
});
