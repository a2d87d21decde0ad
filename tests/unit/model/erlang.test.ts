// Erlang B (integer and continuous) and Erlang C against the reference vectors.
import { describe, expect, it } from 'vitest';
import { erlangB, erlangBCarried, erlangC } from '../../../src/model';
import { expectClose, vectors } from './vectors';

describe('erlangB', () => {
  it.each(vectors.a_erlang.vectors)(
    'c=$c a=$a matches blocking and carried load',
    ({ c, a, ...v }) => {
      expectClose(erlangB(c, a), v.erlang_B);
      expectClose(erlangBCarried(c, a), v.busy_servers_loss_v);
    },
  );

  it.each(vectors.a_erlang.continuous_erlang_B)('continuous n=$n a=$a', ({ n, a, ...v }) => {
    expectClose(erlangB(n, a), v.erlang_B_continuous);
    expectClose(erlangBCarried(n, a), v.v_continuous);
  });

  it('is stable at 256 servers and a large load', () => {
    const b = erlangB(256, 5000);
    expect(b).toBeGreaterThan(0.94);
    expect(b).toBeLessThan(1);
    expect(erlangB(256, 1)).toBeGreaterThanOrEqual(0);
    expect(erlangB(0, 3)).toBe(1);
  });

  it('rejects bad arguments naming the value', () => {
    expect(() => erlangB(-1, 1)).toThrow('invalid servers: -1');
    expect(() => erlangB(257, 1)).toThrow(
      'invalid servers: 257 (allowed finite number >= 0 and <= 256)',
    );
    expect(() => erlangB(2, -0.5)).toThrow('invalid offeredLoad: -0.5');
    expect(() => erlangB(2, NaN)).toThrow('invalid offeredLoad: NaN');
  });
});

describe('erlangC', () => {
  const stable = vectors.a_erlang.vectors.filter((v) => v.erlang_C !== null);
  const unstable = vectors.a_erlang.vectors.filter((v) => v.erlang_C === null);

  it.each(stable)('c=$c a=$a', ({ c, a, ...v }) => {
    expectClose(erlangC(c, a), v.erlang_C!);
  });

  it.each(unstable)('c=$c a=$a is unstable and rejected', ({ c, a }) => {
    expect(() => erlangC(c, a)).toThrow(`invalid offeredLoad: ${a}`);
  });

  it('needs an integer server count', () => {
    expect(() => erlangC(2.5, 1)).toThrow('invalid servers: 2.5 (allowed integer 1..256)');
  });
});
