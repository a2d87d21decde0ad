// From samples to rows (bench/lib/samples.mjs) and ratios between rows (bench/lib/ratios.mjs).
import { describe, expect, test } from 'vitest';
import { ratio } from '../../../bench/lib/ratios.mjs';
import { rotate } from '../../../bench/lib/rounds.mjs';
import { aggregate } from '../../../bench/lib/samples.mjs';

const sample = (key: string, round: number, itemsPerS: number, extra = {}) => ({
  target: 'native',
  key,
  group: key.split('/')[0],
  queue: key.split('/')[1],
  round,
  items: itemsPerS / 5,
  seconds: 0.2,
  items_per_s: itemsPerS,
  ...extra,
});
const HOW = { bench: 'queues', rounds: 3, runId: 'run-1' };

describe('aggregate', () => {
  test('one row per key: median with min and max, rates by round, shortest run', () => {
    const rows = aggregate(
      [sample('comm-2/batch', 0, 30), sample('comm-2/batch', 2, 10), sample('comm-2/batch', 1, 20)],
      HOW,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      bench: 'queues',
      target: 'native',
      key: 'comm-2/batch',
      queue: 'batch',
      items_per_s: 20,
      items_per_s_min: 10,
      items_per_s_max: 30,
      rates: [30, 20, 10],
      run_ms_min: 200,
      repeats: 3,
      run_id: 'run-1',
    });
    expect(rows[0]).not.toHaveProperty('round');
  });

  test('two samples of one key in one round: an error (keys must tell measurements apart)', () => {
    expect(() =>
      aggregate([sample('comm-2/batch', 0, 30), sample('comm-2/batch', 0, 31)], HOW),
    ).toThrow(/two samples of native comm-2\/batch in round 0/);
  });

  test('a field only some keys have is summarized only in their rows', () => {
    const rows = aggregate(
      [sample('latency/lamport', 0, 5, { latency_ns_median: 300 }), sample('comm-2/batch', 0, 9)],
      { ...HOW, ranges: ['latency_ns_median'] },
    );
    expect(rows[0]).toMatchObject({ latency_ns_median: 300, latency_ns_median_min: 300 });
    expect(rows[1]).not.toHaveProperty('latency_ns_median');
  });
});

describe('ratio', () => {
  const row = (target: string, key: string, rates: number[], runId = 'run-1') => ({
    target,
    key,
    rates,
    run_id: runId,
    items_per_s: [...rates].sort((a, b) => a - b)[1],
    items_per_s_min: Math.min(...rates),
    items_per_s_max: Math.max(...rates),
  });

  test('same run: the median of per-round ratios, with their min and max', () => {
    const r = ratio(
      'a / b',
      row('native', 'g/a', [20, 40, 90]),
      row('native', 'g/b', [10, 10, 30]),
      {
        goal: 2.5,
      },
    );
    expect(r).toMatchObject({ ratio: 3, ratio_min: 2, ratio_max: 4, pairs: 3, verdict: 'met' });
    expect(r?.best_ratio).toBe(3); // fastest rounds: 90 / 30
  });

  test('different runs: the ratio of medians, said so, with the widest range', () => {
    const r = ratio(
      'a / b',
      row('wasm', 'g/a', [20, 40, 90]),
      row('native', 'g/a', [10, 10, 30], 'run-0'),
    );
    expect(r).toMatchObject({ ratio: 4, ratio_min: 20 / 30, ratio_max: 9, pairs: 0 });
    expect(r?.method).toMatch(/different runs/);
  });

  test('a missing row gives no ratio', () => {
    expect(ratio('a / b', undefined, row('native', 'g/b', [1, 1, 1]))).toBeNull();
  });
});

test('rotate turns the order left, by any whole number', () => {
  expect(rotate(['a', 'b', 'c'], 1)).toEqual(['b', 'c', 'a']);
  expect(rotate(['a', 'b', 'c'], 4)).toEqual(['b', 'c', 'a']);
  expect(rotate(['a', 'b', 'c'], -1)).toEqual(['c', 'a', 'b']);
});
