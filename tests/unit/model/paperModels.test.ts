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
  modelItemsPerSec,
  openStaticModel,
  predictedRunTimeUs,
  sizing,
  threadPacking,
  workStealingModel,
} from '../../../src/model';
import { parseExperimentSpec, type ExperimentSpec } from '../../../src/spec/experimentSpec';
import { expectClose } from './vectors';

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
    const paper = closedStaticModel(spec);
    const perServer = closedStaticModel(spec, { reading: 'max-service-per-server' });
    expect(paper.arrivalTimeUs).toBe(8);
    expect(perServer.arrivalTimeUs).toBe(1);
    expect(paper.throughputPerUs).toBeCloseTo(0.25, 6);
    expect(perServer.throughputPerUs).toBeCloseTo(4 / 9, 6);
    expect(paper.bottleneckStage).toBe(1);
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
  it('N_optimal is the first size within the tolerance of the ceiling', () => {
    const spec = ferretLike();
    const r = sizing(spec, { tolerance: 0.05 });
    expect(r.ceilingPerUs).toBe(1);
    expect(r.nOptimal).not.toBeNull();
    const at = (n: number) => closedStaticModel(spec, { queueSize: n }).throughputPerUs;
    expect(at(r.nOptimal!)).toBeGreaterThanOrEqual(0.95);
    expect(at(r.nOptimal! - 1)).toBeLessThan(0.95);
    expect(r.cOptimal).toEqual([1, 8, 1]);
  });

  it('work stealing sizes tokens and the thread total', () => {
    const spec = wsSpec([100, 400, 10], true, 8, 8);
    const r = sizing(spec, { tolerance: 0.01 });
    expect(r.lambdaMaxPerUs).toBe(1 / 100);
    expect(r.ceilingPerUs).toBe(1 / 100);
    expect(r.cOptimal).toBe(6);
    const n = r.nOptimal!;
    expect(workStealingModel(spec, { tokens: n }).throughputPerUs).toBeGreaterThanOrEqual(
      0.99 / 100,
    );
    expect(workStealingModel(spec, { tokens: n - 1 }).throughputPerUs).toBeLessThan(0.99 / 100);
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
    const spec = parseExperimentSpec({
      runtime: 'barrier',
      stages: [{ name: 'compute', mode: 'parallel', service: { kind: 'fixed', us: 48_000 } }],
      threads: 16,
      cores: 15,
      items: 10,
      seed: 1,
    });
    const rates = barrierIntervalRates(spec);
    expect(rates.balanced).toBeCloseTo(15 / 48_000, 15);
    expect(rates.balanced / rates.packingBound).toBeCloseTo(1.875, 12);
    expect(modelItemsPerSec('packing-bound', spec)).toBeCloseTo(1e6 / 6000, 9);
    expect(modelItemsPerSec('case1', spec)).toBeNull();
    expect(modelItemsPerSec('case3', spec)).toBeNull();
    expect(() => barrierIntervalRates({ ...spec, runtime: 'static' } as ExperimentSpec)).toThrow(
      'invalid runtime: static (allowed the barrier runtime)',
    );
  });
});
