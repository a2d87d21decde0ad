// Exact solvers: the product-form closed loop and the bounded-buffer Markov chain.
import { describe, expect, it } from 'vitest';
import { boundedPipeline, closedPipeline } from '../../../src/model';
import { expectClose, vectors } from './vectors';

describe('closedPipeline', () => {
  it.each(vectors.c_finite_source.vectors)(
    'a think station with N servers plus a c-server station is the finite source (N=$N c=$c)',
    ({ N: n, c, ...v }) => {
      const r = closedPipeline({
        stages: [
          { serviceTime: v.Z_think, servers: n },
          { serviceTime: v.S, servers: c },
        ],
        population: n,
      });
      expectClose(r.throughput, v.throughput);
    },
  );

  it('one station gives min(N, c)/S', () => {
    expectClose(
      closedPipeline({ stages: [{ serviceTime: 2, servers: 3 }], population: 2 }).throughput,
      1,
    );
    expectClose(
      closedPipeline({ stages: [{ serviceTime: 2, servers: 3 }], population: 9 }).throughput,
      1.5,
    );
  });

  it('two single-server stations: X = μ·N/(N+1) for equal rates', () => {
    for (const n of [1, 3, 10]) {
      const stages = [
        { serviceTime: 1, servers: 1 },
        { serviceTime: 1, servers: 1 },
      ];
      expectClose(closedPipeline({ stages, population: n }).throughput, n / (n + 1));
    }
  });

  it('stays finite for 16 stages of 256 servers and 10,000 tokens', () => {
    const stages = Array.from({ length: 16 }, (_, i) => ({ serviceTime: 1 + i, servers: 256 }));
    const r = closedPipeline({ stages, population: 10_000 });
    expect(r.throughput).toBeLessThanOrEqual(16);
    expect(r.throughput).toBeGreaterThan(15.9);
    const small = closedPipeline({ stages, population: 100 });
    expect(small.throughput).toBeLessThan(r.throughput);
  });

  it('names a bad stage', () => {
    expect(() =>
      closedPipeline({ stages: [{ serviceTime: 1, servers: 300 }], population: 4 }),
    ).toThrow('invalid stages[0].servers: 300 (allowed integer 1..256)');
    expect(() => closedPipeline({ stages: [], population: 4 })).toThrow('invalid stages: 0');
  });
});

describe('boundedPipeline', () => {
  it('two equal single-server stages: X = μ(B+2)/(B+3)', () => {
    const stages = [
      { serviceTime: 1, servers: 1 },
      { serviceTime: 1, servers: 1 },
    ];
    for (const b of [0, 1, 2, 5])
      expectClose(boundedPipeline({ stages, buffers: b }).throughput, (b + 2) / (b + 3));
  });

  it('stage times 1, 8, 0.5 with c2 = 8 at queue size 4 gives about 0.89', () => {
    const r = boundedPipeline({
      stages: [
        { serviceTime: 1, servers: 1 },
        { serviceTime: 8, servers: 8 },
        { serviceTime: 0.5, servers: 1 },
      ],
      buffers: 4,
    });
    expect(r.throughput).toBeGreaterThan(0.885);
    expect(r.throughput).toBeLessThan(0.895);
  });

  it('approaches the bottleneck rate as buffers grow', () => {
    const stages = [
      { serviceTime: 1, servers: 1 },
      { serviceTime: 2, servers: 2 },
    ];
    const small = boundedPipeline({ stages, buffers: 1 }).throughput;
    const large = boundedPipeline({ stages, buffers: 40 }).throughput;
    expect(small).toBeLessThan(large);
    expect(large).toBeGreaterThan(0.97);
    expect(large).toBeLessThan(1);
  });

  it('names a bad buffer', () => {
    const stages = [
      { serviceTime: 1, servers: 1 },
      { serviceTime: 1, servers: 1 },
    ];
    expect(() => boundedPipeline({ stages, buffers: -2 })).toThrow('invalid buffers: -2');
    expect(() => boundedPipeline({ stages, buffers: [1.5] })).toThrow('invalid buffers[0]: 1.5');
  });
});
