// The paper's qualitative results, reproduced by the twin (fixed service times, deterministic).
import { describe, expect, it } from 'vitest';
import { workStealingModel } from '../../../src/model';
import { createSimulation } from '../../../src/runtimes';
import { fixed, spec } from './helpers';

const serialEnds = (middleUs: number[], endsUs = 5) => [
  { name: 'in', mode: 'serial-in-order', service: fixed(endsUs) },
  ...middleUs.map((us, i) => ({ name: `p${i}`, mode: 'parallel', service: fixed(us) })),
  { name: 'out', mode: 'serial-in-order', service: fixed(endsUs) },
];

describe("the paper's shapes", () => {
  it('work stealing: time does not depend on the stage count for the same total work', () => {
    const run = (middle: number[]) =>
      createSimulation(
        spec({
          runtime: 'work-stealing',
          stages: serialEnds(middle),
          threads: 4,
          tokens: 16,
          items: 2000,
        }),
      ).runToEnd().makespanUs;
    const three = run([120]);
    const six = run([30, 30, 30, 30]);
    expect(Math.abs(six - three) / three).toBeLessThan(0.03);
  });

  it('collapsed beats six static stages under imbalance (same threads)', () => {
    const stages = serialEnds([50, 300, 50, 300]).map((s) =>
      s.mode === 'parallel' ? { ...s, threads: 1 } : s,
    );
    const run = (runtime: string) =>
      createSimulation(
        spec({ runtime, stages, queue: { kind: 'mutex', capacity: 4 }, items: 2000 }),
      ).runToEnd();
    const fixedStages = run('static');
    const collapsed = run('collapsed');
    expect(fixedStages.workers).toHaveLength(6);
    expect(collapsed.workers).toHaveLength(6);
    expect(fixedStages.steadyThroughputPerUs).toBeCloseTo(1 / 300, 6);
    expect(collapsed.steadyThroughputPerUs).toBeGreaterThan(
      1.5 * fixedStages.steadyThroughputPerUs,
    );
  });

  it('too few tokens starve the threads', () => {
    const run = (tokens: number) =>
      createSimulation(
        spec({
          runtime: 'work-stealing',
          stages: serialEnds([100]),
          threads: 8,
          tokens,
          items: 2000,
        }),
      ).runToEnd();
    const starved = run(2);
    const fed = run(16);
    const utilization = (r: typeof fed) =>
      r.workers.reduce((a, w) => a + w.busyUs, 0) / (r.makespanUs * r.workers.length);
    expect(starved.makespanUs).toBeGreaterThan(3 * fed.makespanUs);
    expect(utilization(starved)).toBeLessThanOrEqual(2 / 8 + 1e-9);
    expect(utilization(fed)).toBeGreaterThan(0.8);
  });

  it('the serial I/O stage caps work stealing at 1/max(T_in, T_out) (Eq. 7)', () => {
    const s = spec({
      runtime: 'work-stealing',
      stages: serialEnds([400], 100),
      threads: 8,
      tokens: 64,
      items: 2000,
    });
    const model = workStealingModel(s);
    expect(model.throughputPerUs).toBe(1 / 100);
    expect(model.rawPerUs).toBeGreaterThan(1 / 100);
    for (const threads of [8, 16, 32]) {
      const r = createSimulation({ ...s, threads }).runToEnd();
      expect(r.steadyThroughputPerUs).toBeLessThanOrEqual(1 / 100 + 1e-12);
      expect(r.steadyThroughputPerUs).toBeGreaterThan(0.96 / 100);
    }
    // Below 6 threads the physical limit npTh/ΣT_ser binds instead.
    const few = createSimulation({ ...s, threads: 4 }).runToEnd();
    expect(few.steadyThroughputPerUs).toBeLessThanOrEqual(4 / 600 + 1e-12);
    expect(few.steadyThroughputPerUs).toBeGreaterThan(0.97 * (4 / 600));
  });
});
