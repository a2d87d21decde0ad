// The invariants every finished run owes, read from its telemetry (shared by engines.test.ts and
// valid-specs.test.ts): every item out exactly once, serial-in-order stages in input order,
// counters that agree with the events, nothing dropped; for the batch runtimes (two-stage I/O)
// every batch once per stage with its items, the writer in batch order, and each buffer taken and
// freed in turn, never more in use than the pool; for the barrier runtime, every thread passes
// every interval's barrier once and none before the last arrival (tests/support/barrierTelemetry.ts).
import { expect } from 'vitest';
import { canonicalOrder } from '../../src/replay/recording';
import { itemsOut, type ExperimentSpec } from '../../src/spec/experimentSpec';
import type { TelemetryEvent } from '../../src/telemetry';
import { barrierTelemetryProblems } from '../support/barrierTelemetry';
import type { Collected } from './collectRun';

/** Rings are read one after another, so within one read a worker's events come after another's
 * later ones; the checks take them by the run clock. In frame order a work-stealing run's serial
 * stage looked out of order (254, 260, 262 … listed after 276) when two workers took turns at it in
 * one read. */
export const inRunClockOrder = (run: Collected): Collected => ({
  ...run,
  events: canonicalOrder(run.events),
});

const ascending = (xs: number[]) => [...xs].sort((a, b) => a - b);
const upTo = (n: number) => Array.from({ length: n }, (_, i) => i);

/** The batch runtimes (two-stage I/O): events per batch, counters in items, the buffer pool. */
function checkBatchInvariants(spec: ExperimentSpec, { events, last }: Collected) {
  const batchItems = spec.batchItems!;
  const batches = Math.ceil(spec.items / batchItems);
  spec.stages.forEach((stage, s) => {
    const starts = events.filter((e) => e.kind === 'start' && e.stage === s).map((e) => e.item);
    const ends = events.filter((e) => e.kind === 'end' && e.stage === s);
    expect(ascending(starts), `stage ${s}: each batch started once`).toEqual(upTo(batches));
    expect(ascending(ends.map((e) => e.item)), `stage ${s}: each batch ended once`).toEqual(
      upTo(batches),
    );
    expect(
      ends.reduce((sum, e) => sum + e.arg, 0),
      `stage ${s}: items in its batches`,
    ).toBe(spec.items);
    if (stage.mode === 'serial-in-order') expect(starts, `stage ${s} order`).toEqual(upTo(batches));
    expect(last.counters[s].itemsOut, `stage ${s} itemsOut`).toBe(spec.items);
  });
  expect(last.counters[1].queueOccupancy, 'batches left waiting').toBe(0);
  if (spec.runtime === 'two-stage-output') checkBufferPool(spec, events, batches);
  expect(last.dropped).toBe(0);
}

/** Each batch takes, readies and frees one buffer; each buffer alternates take → free. */
function checkBufferPool(spec: ExperimentSpec, events: TelemetryEvent[], batches: number) {
  const kinds = ['buffer-free', 'buffer-take'] as const;
  const steps = events.filter((e) => e.kind.startsWith('buffer-'));
  for (const kind of ['buffer-take', 'buffer-ready', 'buffer-free'])
    expect(
      ascending(steps.filter((e) => e.kind === kind).map((e) => e.item)),
      `${kind}: once per batch`,
    ).toEqual(upTo(batches));
  const perBuffer = new Map<number, TelemetryEvent[]>();
  for (const e of steps.filter((x) => x.kind !== 'buffer-ready'))
    perBuffer.set(e.arg, [...(perBuffer.get(e.arg) ?? []), e]);
  // Indices inside the pool, each buffer holding one batch at a time: never more in use than it.
  expect(Math.max(...perBuffer.keys()), 'buffer index').toBeLessThan(spec.buffers!);
  for (const [buffer, list] of perBuffer) {
    // In time order; at one instant a buffer is freed before it is taken again.
    const order = [...list].sort(
      (a, b) =>
        a.timeUs - b.timeUs || kinds.indexOf(a.kind as never) - kinds.indexOf(b.kind as never),
    );
    order.forEach((e, i) =>
      expect(e.kind, `buffer ${buffer}, step ${i}`).toBe(i % 2 ? 'buffer-free' : 'buffer-take'),
    );
  }
}

/** A barrier run: its telemetry invariants, one interval out per barrier, nothing dropped. */
function checkBarrierRun(spec: ExperimentSpec, { events, last }: Collected, engine: string) {
  const source = engine === 'threads' ? 'measured' : 'simulated';
  expect(barrierTelemetryProblems(spec, events, source)).toEqual([]);
  expect(last.counters[0].itemsOut).toBe(spec.items);
  expect(last.dropped).toBe(0);
}

/** At each stage, the items that reach it (numbered densely after an emitting stage) start and end
 * there once each — all of them, unless the stage is bypassed (then about 1 − bypass of them) — in
 * order at a serial-in-order stage; so what leaves the last stage (its items times its emits, and
 * the items that skip it) is every item out exactly once. The counters agree with the events. */
export function checkInvariants(spec: ExperimentSpec, run: Collected, engine = 'threads') {
  if (spec.runtime === 'barrier') return checkBarrierRun(spec, run, engine);
  if (spec.runtime === 'two-stage-output' || spec.runtime === 'two-stage-input')
    return checkBatchInvariants(spec, run);
  const { events, last } = run;
  const items = (kind: string, s: number) =>
    events.filter((e) => e.kind === kind && e.stage === s).map((e) => e.item);
  let arriving = spec.items;
  spec.stages.forEach((stage, s) => {
    const starts = items('start', s);
    expect(new Set(starts).size, `stage ${s} starts each item once`).toBe(starts.length);
    expect(ascending(items('end', s)), `stage ${s} ends what it started`).toEqual(
      ascending(starts),
    );
    expect(starts.every((item) => item < arriving)).toBe(true);
    const bypass = stage.bypass ?? 0;
    if (bypass === 0) expect(starts, `stage ${s} starts`).toHaveLength(arriving);
    // The bypass is drawn per item: within 5 standard deviations of its fraction (few items vary).
    else
      expect(Math.abs(starts.length / arriving - (1 - bypass))).toBeLessThan(
        Math.max(0.1, 5 * Math.sqrt((bypass * (1 - bypass)) / arriving)),
      );
    if (stage.mode === 'serial-in-order')
      expect(starts, `stage ${s} order`).toEqual([...starts].sort((a, b) => a - b));
    const emits = stage.emits ?? 1;
    expect(last.counters[s].itemsIn, `stage ${s} itemsIn`).toBe(starts.length);
    expect(last.counters[s].itemsOut, `stage ${s} itemsOut`).toBe(starts.length * emits);
    arriving = starts.length * emits + (arriving - starts.length);
  });
  expect(arriving).toBe(itemsOut(spec));
  expect(last.dropped).toBe(0);
}
