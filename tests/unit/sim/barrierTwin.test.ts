// The barrier runtime's twin: the telemetry invariants the C++ runtime owes
// (tests/support/barrierTelemetry.ts), exact times where the model is exact (thread reduction, the packed schedule, no
// balancer), the work conserved, the scheduler model's documented effects (the balancer smooths
// long intervals and not short ones; spinning waiters burn their slices), and reproducibility.
import { describe, expect, test } from 'vitest';
import { createSimulation } from '../../../src/runtimes';
import type { EventInput } from '../../../src/sim';
import { barrierTelemetryProblems } from '../../support/barrierTelemetry';
import type { ExperimentSpec } from '../../../src/spec/experimentSpec';
import { barrierSpec } from './helpers';

function run(spec: ExperimentSpec, balancePeriodUs?: number) {
  const events: EventInput[] = [];
  const result = createSimulation(spec, {
    sink: (e) => events.push(e),
    balancePeriodUs,
  }).runToEnd();
  return { result, events };
}

describe.each([
  ['os', 'blocking'],
  ['os', 'spin'],
  ['packed', 'blocking'],
  ['packed', 'spin'],
])('%s schedule, %s barrier', (schedule, kind) => {
  test.each([
    [3, 2],
    [16, 15],
    [16, 7],
    [2, 4],
    [1, 1],
  ])('%i threads on %i cores: every barrier once per thread, none passed early', (t, c) => {
    const spec = barrierSpec(t, c, 700, 30, { schedule, barrier: kind, quantumUs: 300 });
    const { result, events } = run(spec, 2000);
    expect(barrierTelemetryProblems(spec, events, 'simulated')).toEqual([]);
    expect(result.completed).toBe(30);
    expect(result.stages[0].itemsOut).toBe(30);
    // Work is conserved: every thread computed its share of every interval.
    expect(result.stages[0].busyUs).toBeCloseTo(30 * t * 700, 3);
    expect(result.coreBusyUs!.reduce((a, b) => a + b, 0)).toBeCloseTo(30 * t * 700, 3);
  });
});

describe('exact where the model is exact', () => {
  test('thread reduction (threads <= cores): every interval takes one share', () => {
    for (const [t, c] of [
      [4, 4],
      [3, 8],
    ])
      expect(run(barrierSpec(t, c, 1000, 10)).result.makespanUs).toBeCloseTo(10 * 1000, 6);
  });

  test('packed: each interval takes the busiest core: ceil(T/C) shares', () => {
    for (const [t, c] of [
      [16, 15],
      [16, 7],
      [16, 8],
      [3, 2],
    ]) {
      const { result } = run(barrierSpec(t, c, 500, 12, { schedule: 'packed' }));
      expect(result.makespanUs).toBeCloseTo(12 * Math.ceil(t / c) * 500, 6);
    }
  });

  test('os without a balancer keeps the imbalance whatever the interval length', () => {
    for (const perThreadUs of [2000, 60000]) {
      const tp = run(barrierSpec(16, 15, perThreadUs, 8), 1e15).result.makespanUs;
      expect(tp).toBeCloseTo(8 * 2 * perThreadUs, 6);
    }
  });

  test('packed core time: the imbalance factor is max/min threads per core (2 at 15, 1.5 at 7)', () => {
    const factor = (c: number) => {
      const busy = run(barrierSpec(16, c, 500, 4, { schedule: 'packed' })).result.coreBusyUs!;
      return Math.max(...busy) / Math.min(...busy);
    };
    expect(factor(15)).toBeCloseTo(2, 9);
    expect(factor(7)).toBeCloseTo(1.5, 9);
  });
});

describe('the scheduler model', () => {
  // TP (16 threads) over TR (15 threads), the same total work per interval.
  const ratio = (perThreadUs: number, intervals: number) => {
    const tp = barrierSpec(16, 15, perThreadUs, intervals);
    const tr = { ...tp, threads: 15, tokens: 15 };
    return run(tp).result.makespanUs / run(tr).result.makespanUs;
  };

  test('the balancer smooths coarse intervals, not fine ones (16 threads on 15 cores)', () => {
    const fine = ratio(2420, 300);
    const coarse = ratio(62_500, 12); // 1 s of work per interval: the spec's most
    expect(fine).toBeGreaterThan(1.6);
    expect(fine).toBeLessThanOrEqual(1.875 + 1e-9);
    expect(coarse).toBeLessThan(1.1);
    expect(coarse).toBeGreaterThanOrEqual(1);
  });

  test('spinning waiters burn their slices when threads outnumber cores', () => {
    const blocking = run(barrierSpec(3, 2, 1000, 40, { quantumUs: 400 })).result.makespanUs;
    const spin = run(barrierSpec(3, 2, 1000, 40, { quantumUs: 400, barrier: 'spin' })).result
      .makespanUs;
    expect(spin).toBeGreaterThan(blocking);
  });

  test('the same seed gives the same run; another seed moves the balancer', () => {
    const a = run(barrierSpec(16, 15, 3000, 40)).result;
    const b = run(barrierSpec(16, 15, 3000, 40)).result;
    expect(b).toEqual(a);
    const other = run({ ...barrierSpec(16, 15, 3000, 40), seed: 8 }).result;
    expect(other.makespanUs).not.toBe(a.makespanUs);
  });

  test('a bad balancer period is named', () => {
    expect(() => createSimulation(barrierSpec(2, 2, 500, 1), { balancePeriodUs: 0 })).toThrow(
      'invalid balancePeriodUs: 0 (allowed finite number > 0)',
    );
  });
});
