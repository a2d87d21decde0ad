// xoshiro128**: reproducible from the seed, distinct across seeds, uniform on [0, 1).
import { describe, expect, it } from 'vitest';
import { Xoshiro128, replicate, studentT975 } from '../../../src/sim';

describe('Xoshiro128', () => {
  it('repeats its stream for a seed and differs across seeds', () => {
    const a = new Xoshiro128(42);
    const b = new Xoshiro128(42);
    const c = new Xoshiro128(43);
    const sa = Array.from({ length: 100 }, () => a.nextUint32());
    expect(Array.from({ length: 100 }, () => b.nextUint32())).toEqual(sa);
    expect(Array.from({ length: 100 }, () => c.nextUint32())).not.toEqual(sa);
  });

  it('draws uniforms in [0, 1) with mean 1/2 and variance 1/12', () => {
    const rng = new Xoshiro128(7);
    const n = 200_000;
    let sum = 0;
    let sq = 0;
    let outside = 0;
    for (let i = 0; i < n; i++) {
      const u = rng.uniform();
      if (!(u >= 0 && u < 1)) outside++;
      sum += u;
      sq += u * u;
    }
    expect(outside).toBe(0);
    expect(Math.abs(sum / n - 0.5)).toBeLessThan(0.005);
    expect(Math.abs(sq / n - (sum / n) ** 2 - 1 / 12)).toBeLessThan(0.002);
  });

  it('keeps below(n) within 0..n−1', () => {
    const rng = new Xoshiro128(1);
    const seen = new Set<number>();
    for (let i = 0; i < 1000; i++) seen.add(rng.below(5));
    expect([...seen].sort()).toEqual([0, 1, 2, 3, 4]);
  });
});

describe('replicate', () => {
  it('gives the mean and a Student-t 95% half-width', () => {
    const r = replicate(4, (seed) => seed, 1);
    expect(r.values).toEqual([1, 2, 3, 4]);
    expect(r.mean).toBe(2.5);
    expect(r.halfWidth).toBeCloseTo((3.182 * Math.sqrt(5 / 3)) / 2, 10);
    expect(studentT975(200)).toBeCloseTo(1.9719, 3);
    expect(() => replicate(1, () => 0)).toThrow('invalid replications: 1');
  });
});
