// M/M/c, M/M/c/K and the finite source against the reference vectors, and the paper's checks.
import { describe, expect, it } from 'vitest';
import { finiteSource, mmc, mmck } from '../../../src/model';
import { expectClose, vectors } from './vectors';

describe('mmc', () => {
  const stable = vectors.a_erlang.vectors.filter((v) => v.erlang_C !== null);
  it.each(stable)('c=$c a=$a', ({ c, a, mmc_with_S1_lam_a }) => {
    const ref = mmc_with_S1_lam_a!;
    const r = mmc({ arrivalRate: a, serviceTime: 1, servers: c });
    expectClose(r.meanInQueue, ref.Lq);
    expectClose(r.meanWait, ref.Wq);
    expectClose(r.meanResponse, ref.W);
    expectClose(r.meanInSystem, ref.L);
    expectClose(r.p0, ref.P0, 1e-9);
    expectClose(r.throughput, ref.throughput);
  });

  it('refuses a mean for an unstable queue', () => {
    expect(() => mmc({ arrivalRate: 6, serviceTime: 1, servers: 4 })).toThrow(
      'invalid arrivalRate: 6 (allowed arrivalRate × serviceTime < servers = 4;',
    );
    expect(() => mmc({ arrivalRate: -1, serviceTime: 1, servers: 4 })).toThrow(
      'invalid arrivalRate: -1',
    );
    expect(() => mmc({ arrivalRate: 1, serviceTime: 0, servers: 4 })).toThrow(
      'invalid serviceTime: 0',
    );
  });
});

describe('mmck', () => {
  it.each(vectors.b_mmck.vectors)('c=$c K=$K', ({ c, K: k, ...v }) => {
    const r = mmck({ arrivalRate: v.lam, serviceTime: v.S, servers: c, capacity: k });
    expectClose(r.blocking, v.P_block);
    expectClose(r.throughput, v.throughput);
    expectClose(r.meanInSystem, v.L);
    expectClose(r.meanResponse, v.W);
    expectClose(r.utilization, v.utilization);
    expectClose(r.waitProbabilityAdmitted + 1, v.P_wait_given_admitted + 1);
    expectClose(r.meanInQueue + 1, v.Lq + 1);
  });

  it('rejects a capacity below the server count', () => {
    expect(() => mmck({ arrivalRate: 1, serviceTime: 1, servers: 4, capacity: 3 })).toThrow(
      'invalid capacity: 3 (allowed integer 4..1000000)',
    );
  });
});

describe('finiteSource', () => {
  const cases = vectors.c_finite_source.vectors;
  it.each(cases)('N=$N c=$c', ({ N: n, c, ...v }) => {
    const r = finiteSource({ servers: c, population: n, thinkTime: v.Z_think, serviceTime: v.S });
    expectClose(r.throughput, v.throughput);
    expectClose(r.meanInSystem, v.L_at_station);
    expectClose(r.meanResponse, v.R_response);
    expectClose(r.utilization, v.utilization);
    expectClose(r.p0, v.P0);
    v.P_n.forEach((p: number, i: number) => expectClose(r.probabilities[i], p, 1e-8));
  });

  it.each(cases)('Eq. 3 Σ(N−n)P_n/T_arr equals Σmin(n,c)P_n/T_ser (N=$N c=$c)', (v) => {
    const r = finiteSource({
      servers: v.c,
      population: v.N,
      thinkTime: v.Z_think,
      serviceTime: v.S,
    });
    expectClose(r.throughputEq3, r.throughput, 1e-12);
    expectClose(r.throughputEq3, v.throughput_eq3_form);
  });

  it.each(vectors.c_finite_source.real_valued_servers)(
    'real-valued servers c=$c_real',
    ({ c_real: c, ...v }) => {
      const r = finiteSource({
        servers: c,
        population: v.N,
        thinkTime: v.Z_think,
        serviceTime: v.S,
      });
      expectClose(r.throughput, v.throughput);
      v.P_n.forEach((p: number, i: number) => expectClose(r.probabilities[i], p));
    },
  );

  it('with one server, utilization ρ equals p = 1 − P0 (Case 3 step 1 check)', () => {
    for (const n of [1, 2, 5, 40]) {
      const r = finiteSource({ servers: 1, population: n, thinkTime: 7, serviceTime: 7 });
      expectClose(r.utilization, 1 - r.p0, 1e-12);
    }
  });

  it('is stable for 256 servers and 10,000 tokens', () => {
    const r = finiteSource({ servers: 256, population: 10_000, thinkTime: 50, serviceTime: 1 });
    expect(Number.isFinite(r.throughput)).toBe(true);
    expect(r.throughput).toBeLessThanOrEqual(256);
    expect(r.throughput).toBeGreaterThan(190);
    expectClose(r.throughputEq3, r.throughput, 1e-9);
  });

  it('rejects a population outside 1..65536', () => {
    expect(() =>
      finiteSource({ servers: 1, population: 70_000, thinkTime: 1, serviceTime: 1 }),
    ).toThrow('invalid population: 70000 (allowed integer 1..65536)');
  });
});
