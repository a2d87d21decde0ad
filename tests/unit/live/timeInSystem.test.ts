// Little's law from events (src/live/timeInSystem.ts, src/runtimes/inSystem.ts): exact values on
// hand-made stays, the window and pairing rules, a ring that dropped events, and the twin's runs
// obeying L = λ·W inside their steady window and the bounds their tokens and queues set.
import { describe, expect, test } from 'vitest';
import { inSystem, tapInSystem, type StayEvent } from '../../../src/live/timeInSystem';
import { twinInSystem, twinInSystemRun } from '../../../src/runtimes/inSystem';
import { parseExperimentSpec } from '../../../src/spec/experimentSpec';
import { createTapWriter, readRing } from '../../../src/telemetry';

/** Items entering every `gapUs` and each staying `stayUs` (a two-stage pipeline: stages 0 and 1). */
function steady(items: number, gapUs: number, stayUs: number): StayEvent[] {
  return Array.from({ length: items }, (_, i) => [
    { kind: 'start' as const, stage: 0, item: i, timeUs: i * gapUs },
    { kind: 'end' as const, stage: 1, item: i, timeUs: i * gapUs + stayUs },
  ])
    .flat()
    .sort((a, b) => a.timeUs - b.timeUs);
}

describe('inSystem on hand-made stays', () => {
  test('one item every 10 µs staying 30 µs: L = 3, λ = 0.1 per µs, W = 30 µs', () => {
    const r = inSystem(steady(1000, 10, 30), { lastStage: 1 })!;
    expect(r.meanTimeInSystemUs).toBeCloseTo(30, 9);
    expect(r.throughputPerUs).toBeCloseTo(0.1, 3);
    expect(r.meanInFlight).toBeCloseTo(3, 2);
    expect(r.maxInFlight).toBe(3);
    expect(r.unpaired).toBe(0);
  });

  test('the window is the steady part: a slow start outside it does not count', () => {
    // The first 100 items stay 500 µs, the rest 30 µs: the 10%..90% exits see only the 30 µs ones.
    const events = steady(1000, 10, 30).map((e) =>
      e.kind === 'end' && e.item < 100 ? { ...e, timeUs: e.timeUs + 470 } : e,
    );
    const r = inSystem(events, { lastStage: 1, from: 0.2 })!;
    expect(r.meanTimeInSystemUs).toBeCloseTo(30, 6);
    expect(r.maxInFlight).toBeGreaterThan(40);
  });

  test('an exit without an entry is unpaired; an entry without an exit is still inside', () => {
    const events: StayEvent[] = [
      ...steady(100, 10, 30),
      { kind: 'end', stage: 1, item: 5000, timeUs: 55 },
      { kind: 'start', stage: 0, item: 6000, timeUs: 60 },
    ];
    const r = inSystem(events, { lastStage: 1 })!;
    expect(r.unpaired).toBe(1);
    expect(r.stillInside).toBe(1);
    expect(r.meanTimeInSystemUs).toBeCloseTo(30, 9);
  });

  test('too few items, or a window that is not inside 0..1, give null or a named error', () => {
    expect(inSystem(steady(5, 10, 30), { lastStage: 1 })).toBeNull();
    expect(() => inSystem(steady(50, 10, 30), { lastStage: 1, from: 0.9, to: 0.1 })).toThrow(
      /window 0.9..0.1 is not inside 0..1/,
    );
  });

  test('a ring that dropped its newest events cuts the count at its last stored event', () => {
    // Worker 0 enters items (and writes a second event per item, so its ring fills first), worker
    // 1 ends them; each item stays 300 µs, one enters every 10 µs: L = 30.
    const fill = (capacity: number) => {
      const w = createTapWriter(2, 2, capacity);
      for (const e of steady(1000, 10, 300)) {
        const worker = e.kind === 'start' ? 0 : 1;
        w.rings[worker].push({ ...e, worker, arg: 0 });
        if (worker === 0) w.rings[0].push({ ...e, kind: 'dequeue', worker, arg: 0 });
      }
      return w.tap;
    };
    expect(tapInSystem(fill(2048), 1)!.meanInFlight).toBeCloseTo(30, 1);
    // Rings of 256 records: worker 0 keeps 128 entries, worker 1 256 exits. Counted past worker
    // 0's last kept event, items that entered unseen would be missing from L.
    const read = fill(256); // readRing consumes what it reads: a second tap for tapInSystem
    const events = [0, 1].flatMap((w) => readRing(read.buffer, read.ringOffsets[w]).events);
    const uncut = inSystem(events, { lastStage: 1 })!;
    expect(uncut.meanInFlight).toBeLessThan(
      0.97 * uncut.throughputPerUs * uncut.meanTimeInSystemUs,
    );
    const cut = tapInSystem(fill(256), 1)!;
    expect(cut.meanTimeInSystemUs).toBeCloseTo(300, 9);
    expect(
      Math.abs(cut.meanInFlight / (cut.throughputPerUs * cut.meanTimeInSystemUs) - 1),
    ).toBeLessThan(0.005);
  });
});

const pipeline = (over: object) =>
  parseExperimentSpec({
    runtime: 'static',
    stages: [
      { name: 'a', mode: 'serial-in-order', service: { kind: 'exponential', meanUs: 100 } },
      { name: 'b', mode: 'parallel', threads: 2, service: { kind: 'exponential', meanUs: 150 } },
      { name: 'c', mode: 'serial-out-of-order', service: { kind: 'exponential', meanUs: 100 } },
    ],
    queue: { kind: 'mutex', capacity: 4 },
    items: 3000,
    seed: 7,
    ...over,
  });

describe("the twin obeys Little's law in its steady window", () => {
  test('static pipeline, bounded queues: L within 3% of λ·W, and never more items inside than queues and threads hold', () => {
    const spec = pipeline({});
    const r = twinInSystemRun(spec)!;
    expect(Math.abs(r.meanInFlight - r.throughputPerUs * r.meanTimeInSystemUs)).toBeLessThan(
      0.03 * r.meanInFlight,
    );
    // Two links of 4 slots, 4 threads each holding one: at most 12 items between entry and exit
    // (an in-order last stage would also hold early arrivals outside the capacity).
    expect(r.maxInFlight).toBeLessThanOrEqual(2 * 4 + 4);
  });

  test('work stealing: never more items inside than its tokens, and more tokens hold more', () => {
    const few = pipeline({ runtime: 'work-stealing', threads: 4, tokens: 2, queue: undefined });
    const many = pipeline({ runtime: 'work-stealing', threads: 4, tokens: 16, queue: undefined });
    const a = twinInSystemRun(few)!;
    const b = twinInSystemRun(many)!;
    expect(a.maxInFlight).toBeLessThanOrEqual(2);
    expect(b.maxInFlight).toBeLessThanOrEqual(16);
    expect(b.meanInFlight).toBeGreaterThan(a.meanInFlight);
    const t = twinInSystem(many);
    expect(Math.abs(t.meanInFlight - t.lambdaTimesW)).toBeLessThan(0.03 * t.meanInFlight);
  });

  test('stages that emit several items cannot be followed: the quantity says why', () => {
    const spec = parseExperimentSpec({
      runtime: 'static',
      stages: [
        { name: 'a', mode: 'serial-in-order', service: { kind: 'fixed', us: 10 } },
        { name: 'b', mode: 'serial-in-order', emits: 3, service: { kind: 'fixed', us: 10 } },
        { name: 'c', mode: 'serial-in-order', service: { kind: 'fixed', us: 10 } },
      ],
      items: 50,
      seed: 1,
    });
    expect(() => twinInSystem(spec)).toThrow(/stage b emits several items or lets some bypass/);
  });
});
