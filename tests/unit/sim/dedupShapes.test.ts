// The twin with dedup's shapes (src/sim/staticRuntime.ts): a stage that emits e items per item
// hands on items numbered item·e + k, an item bypasses a stage alone in its group by being pushed
// past it and skips the stage inside a fused group; which items bypass is a hash of
// (seed, stage, item), so the same items bypass on either layout and at any thread count.
import { describe, expect, test } from 'vitest';
import { itemsOut } from '../../../src/spec/experimentSpec';
import { bypassDraw } from '../../../src/sim/staticRuntime';
import { capture, exponential, spec } from './helpers';

const stages = [
  { name: 'in', mode: 'serial-in-order', service: exponential(10) },
  { name: 'anchor', mode: 'parallel', threads: 2, emits: 3, service: exponential(30) },
  { name: 'hash', mode: 'parallel', threads: 2, service: exponential(10) },
  { name: 'compress', mode: 'parallel', threads: 2, bypass: 0.3, service: exponential(20) },
  { name: 'out', mode: 'serial-in-order', service: exponential(3) },
];

const variants = {
  'static, bounded': spec({
    runtime: 'static',
    stages,
    queue: { kind: 'mutex', capacity: 2 },
    items: 200,
  }),
  'static, unbounded': spec({
    runtime: 'static',
    stages,
    queue: { kind: 'mutex', capacity: null },
    items: 200,
  }),
  'collapsed, unbounded': spec({
    runtime: 'collapsed',
    stages,
    queue: { kind: 'mutex', capacity: null },
    items: 200,
  }),
};

const COMPRESS = 3;
const skipped = (seed: number, item: number) => bypassDraw(seed, COMPRESS, item) < 0.3;

describe.each(Object.entries(variants))('%s', (_name, s) => {
  const { events, result } = capture(s);
  const starts = (stage: number) =>
    events.filter((e) => e.kind === 'start' && e.stage === stage).map((e) => e.item);

  test('every item out exactly once, in order at the serial output, numbered densely', () => {
    const total = itemsOut(s);
    expect(total).toBe(600);
    expect(starts(4)).toEqual(Array.from({ length: total }, (_, i) => i));
    expect(result.completed).toBe(total);
  });

  test('the emitting stage serves each input once and hands on e items for each', () => {
    expect([...starts(1)].sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, i) => i));
    expect(result.stages[1].itemsIn).toBe(200);
    expect(result.stages[1].itemsOut).toBe(600);
    expect([...starts(2)].sort((a, b) => a - b)).toEqual(Array.from({ length: 600 }, (_, i) => i));
  });

  test('exactly the items the hash picks skip compress, the rest are served there once', () => {
    const served = [...starts(COMPRESS)].sort((a, b) => a - b);
    const expected = Array.from({ length: 600 }, (_, i) => i).filter((i) => !skipped(s.seed, i));
    expect(served).toEqual(expected);
    // About 30% skip (a hash, not a count: 600 draws land within a few percent).
    expect(Math.abs(1 - served.length / 600 - 0.3)).toBeLessThan(0.06);
    expect(result.stages[COMPRESS].itemsOut).toBe(served.length);
  });

  test('queues end empty', () => {
    for (const stage of result.stages) expect(stage.queueOccupancy).toBe(0);
  });
});

test('a token loop (inFlightLimit) refuses emitting stages, naming why', () => {
  expect(() => capture(variants['static, unbounded'], { inFlightLimit: 4 })).toThrow(
    'invalid inFlightLimit: a token loop needs stages that emit one item each (no emits)',
  );
});

test('the bypass draw is uniform-ish and depends on seed, stage and item', () => {
  const draws = Array.from({ length: 10000 }, (_, i) => bypassDraw(1, 3, i));
  expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
  expect(Math.max(...draws)).toBeLessThan(1);
  const below = draws.filter((d) => d < 0.25).length / draws.length;
  expect(Math.abs(below - 0.25)).toBeLessThan(0.02);
  expect(bypassDraw(2, 3, 5)).not.toBe(bypassDraw(1, 3, 5));
  expect(bypassDraw(1, 2, 5)).not.toBe(bypassDraw(1, 3, 5));
});
