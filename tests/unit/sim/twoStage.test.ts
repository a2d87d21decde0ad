// The two-stage twins against what they must give exactly (fixed service times): the serial
// variant takes items × (F + W); dual-thread items × max(F, W) plus one batch; two-stage with
// enough cores items × max(F/N, W), and with fewer cores than threads the whole work over the
// cores (a migrating pool) — Dempsey's 4 formatters + writer on 4 cores; the input end the same
// with the scan first; a pool of two buffers holds two batches at most; runs are seeded.
import { expect, test } from 'vitest';
import { createSimulation } from '../../../src/runtimes';
import { parseExperimentSpec } from '../../../src/spec/experimentSpec';

const F = 1.1002;
const W = 0.2492;
const ITEMS = 1_000_000;
const BATCH = 1024;

const output = (variant: string, threads: number, extra: Record<string, unknown> = {}) =>
  parseExperimentSpec({
    runtime: 'two-stage-output',
    stages: [
      { name: 'format', mode: 'parallel', threads, service: { kind: 'fixed', us: F } },
      { name: 'write', mode: 'serial-in-order', service: { kind: 'fixed', us: W } },
    ],
    variant,
    batchItems: BATCH,
    items: ITEMS,
    seed: 2,
    ...extra,
  });
const timeUs = (spec: ReturnType<typeof output>) => createSimulation(spec).runToEnd().makespanUs;

test('serial formats then writes: items × (F + W)', () => {
  expect(timeUs(output('serial', 1))).toBeCloseTo(ITEMS * (F + W), 3);
});

test('dual-thread overlaps the two: items × F plus the last batch written', () => {
  const lastBatch = ITEMS - Math.floor(ITEMS / BATCH) * BATCH;
  expect(timeUs(output('dual-thread', 1))).toBeCloseTo(ITEMS * F + lastBatch * W, 3);
});

test('two-stage: N formatters up to the writer, then the writer caps it', () => {
  const first = BATCH * (F + W); // the first batch is formatted, then written
  expect(timeUs(output('two-stage', 2))).toBeLessThan((ITEMS * F) / 2 + first);
  expect(timeUs(output('two-stage', 2))).toBeGreaterThan((ITEMS * F) / 2);
  // Five formatters outrun the writer: one item per W.
  expect(timeUs(output('two-stage', 5))).toBeLessThan(ITEMS * W + first);
  expect(timeUs(output('two-stage', 5))).toBeGreaterThan(ITEMS * W);
});

test('more threads than cores share them: 4 formatters + the writer on 4 cores run the whole work over 4', () => {
  const t = timeUs(output('two-stage', 4, { cores: 4 }));
  expect(t / ((ITEMS * (F + W)) / 4)).toBeGreaterThan(0.999);
  expect(t / ((ITEMS * (F + W)) / 4)).toBeLessThan(1.01);
});

test('two buffers: at most two batches in hand, so six formatters do what two would', () => {
  const two = timeUs(output('two-stage', 6, { buffers: 2 }));
  expect(two).toBeGreaterThan((ITEMS * F) / 2);
  expect(two).toBeLessThan(ITEMS * F);
  expect(two).toBeGreaterThan(timeUs(output('two-stage', 2)));
});

test('the input end: the scan first, then readers; serial is the sum', () => {
  const input = (variant: string, readers: number) =>
    parseExperimentSpec({
      runtime: 'two-stage-input',
      stages: [
        { name: 'scan', mode: 'serial-in-order', service: { kind: 'fixed', us: 0.5 } },
        { name: 'read', mode: 'parallel', threads: readers, service: { kind: 'fixed', us: 3 } },
      ],
      variant,
      batchItems: 100,
      items: 100_000,
      seed: 0,
    });
  expect(timeUs(input('serial', 1))).toBeCloseTo(100_000 * 3.5, 3);
  const four = timeUs(input('two-stage', 4));
  expect(four).toBeGreaterThan((100_000 * 3) / 4);
  expect(four).toBeLessThan((100_000 * 3) / 4 + 100 * 3.5);
  // Eight readers are capped by the scan: one record per 0.5 µs.
  const eight = timeUs(input('two-stage', 8));
  expect(eight).toBeGreaterThan(100_000 * 0.5);
  expect(eight).toBeLessThan(100_000 * 0.5 + 100 * 3.5);
});

test('seeded: the same spec gives the same run; exponential formatting differs by seed', () => {
  const spec = parseExperimentSpec({
    ...output('two-stage', 3),
    stages: [
      { name: 'format', mode: 'parallel', threads: 3, service: { kind: 'exponential', meanUs: 2 } },
      { name: 'write', mode: 'serial-in-order', service: { kind: 'fixed', us: 0.5 } },
    ],
    items: 50_000,
    threads: undefined,
    tokens: undefined,
  });
  expect(timeUs(spec)).toBe(timeUs(spec));
  expect(timeUs({ ...spec, seed: 3 })).not.toBe(timeUs(spec));
});
