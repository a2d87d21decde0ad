// Contract test: telemetry written by the C++ headers compiled to wasm (rings, counters, a real
// work-stealing run on pthreads) decodes with src/telemetry exactly as written.
// Module: wasm/build/em/node/pipelab-telemetry-layout.js (built with the em build; override the
// build folder with PIPELAB_EM_BUILD).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  decodeBatchArg,
  encodeBatchArg,
  EVENT_KINDS,
  RING_OFFSET,
  readRing,
  readStageCounters,
  type TelemetryEvent,
} from '../../src/telemetry';

interface LayoutModule {
  HEAPU8: Uint8Array;
  PThread: { terminateAllThreads(): void };
  _pl_tl_ring_create(capacity: number, worker: number): number;
  _pl_tl_ring_push(t: number, item: number, arg: number, w: number, s: number, k: number): number;
  _pl_tl_writer_start(count: number): void;
  _pl_tl_writer_done(): number;
  _pl_tl_writer_join(): void;
  _pl_tl_counters_create(stages: number): number;
  _pl_tl_pipeline_start(items: number, threads: number): number;
  _pl_tl_pipeline_finished(): number;
  _pl_tl_pipeline_join(): void;
  _pl_tl_pipeline_ring(worker: number): number;
  _pl_tl_pipeline_counters(): number;
  _pl_tl_batch_arg(half: number, count: number, flush: number): number;
  _pl_tl_kind_name(kind: number): number;
  UTF8ToString(ptr: number): string;
}

const buildDir = process.env.PIPELAB_EM_BUILD ?? resolve(__dirname, '../../wasm/build/em');
const modulePath = resolve(buildDir, 'node/pipelab-telemetry-layout.js');
let mod: LayoutModule;

beforeAll(async () => {
  if (!existsSync(modulePath)) throw new Error(`${modulePath} is missing: run the em build`);
  const factory = createRequire(import.meta.url)(modulePath) as () => Promise<LayoutModule>;
  mod = await factory();
});
afterAll(() => mod?.PThread.terminateAllThreads());

const heap = () => mod.HEAPU8.buffer;
const tick = () => new Promise((r) => setTimeout(r, 1));

describe('telemetry layout: C++ in wasm → TypeScript decoder', () => {
  test('the event kinds: the same names with the same codes, and no more', () => {
    const names = Array.from({ length: EVENT_KINDS.length + 1 }, (_, k) =>
      mod.UTF8ToString(mod._pl_tl_kind_name(k)),
    );
    expect(names).toEqual([...EVENT_KINDS, '']);
  });

  test('every field of every kind decodes as written', () => {
    // Room for one event of every kind.
    const ring = mod._pl_tl_ring_create(32, 5);
    const written: Omit<TelemetryEvent, 'seq'>[] = EVENT_KINDS.map((kind, k) => ({
      timeUs: 1234.5 + k / 8,
      item: k === 2 ? 0xffffffff : 1000 + k,
      arg: 0xffffffe0 + k, // high bits set, and still a u32 for up to 32 kinds
      worker: 5,
      stage: k === 2 ? 0xff : k,
      kind,
    }));
    for (const e of written) {
      expect(
        mod._pl_tl_ring_push(
          e.timeUs,
          e.item,
          e.arg,
          e.worker,
          e.stage,
          EVENT_KINDS.indexOf(e.kind),
        ),
      ).toBe(1);
    }
    const r = readRing(heap(), ring);
    expect(r.worker).toBe(5);
    expect(r.capacity).toBe(32);
    expect(r.events).toEqual(written.map((e, i) => ({ ...e, seq: i })));
    expect(new DataView(heap()).getUint32(ring + RING_OFFSET.readCount, true)).toBe(
      EVENT_KINDS.length,
    );
  });

  test('the batch-* arg packs semi-buffer, flush and count as the decoder reads them', () => {
    for (const half of [0, 1] as const)
      for (const flush of [false, true])
        for (const count of [0, 1, 7, 512, 0x3fffffff]) {
          const arg = mod._pl_tl_batch_arg(half, count, flush ? 1 : 0) >>> 0;
          expect(decodeBatchArg(arg)).toEqual({ half, flush, count });
          expect(encodeBatchArg({ half, flush, count })).toBe(arg);
        }
  });

  test('a full ring drops and counts; seq gaps reveal the drops', () => {
    const ring = mod._pl_tl_ring_create(4, 0);
    for (let i = 0; i < 7; i++) mod._pl_tl_ring_push(i, i, 0, 0, 0, 0);
    const r = readRing(heap(), ring);
    expect(r.events.map((e) => e.item)).toEqual([0, 1, 2, 3]);
    expect(r.dropped).toBe(3);
    mod._pl_tl_ring_push(9, 9, 0, 0, 0, 1);
    expect(readRing(heap(), ring).events).toEqual([
      { timeUs: 9, item: 9, arg: 0, worker: 0, stage: 0, kind: 'end', seq: 7 },
    ]);
  });

  test('a pthread writer and this reader share the ring without loss or reordering', async () => {
    const count = 200_000;
    const ring = mod._pl_tl_ring_create(1024, 1);
    mod._pl_tl_writer_start(count);
    let read = 0;
    let lastSeq = -1;
    let ok = true;
    for (;;) {
      const done = mod._pl_tl_writer_done() === 1;
      const r = readRing(heap(), ring);
      for (const e of r.events) {
        ok &&= e.seq > lastSeq && e.seq >= e.item && e.arg === e.item * 3;
        ok &&=
          e.kind === EVENT_KINDS[e.item % EVENT_KINDS.length] &&
          e.stage === e.item % 7 &&
          e.timeUs === e.item / 2;
        lastSeq = e.seq;
      }
      read += r.events.length;
      if (done && r.events.length === 0) {
        expect(read + r.dropped).toBe(count);
        break;
      }
      await tick();
    }
    mod._pl_tl_writer_join();
    expect(ok).toBe(true);
    expect(read).toBeGreaterThan(0);
  });

  test('stage counter lines decode field by field', () => {
    const at = mod._pl_tl_counters_create(3);
    const lines = readStageCounters(heap(), at, 3);
    expect(lines[2]).toEqual({
      itemsIn: 3000,
      itemsOut: 3001,
      queueOccupancy: 3002,
      busyUs: 3003,
      idleUs: 3004,
      blockedUs: 3005,
    });
  });

  test('a real work-stealing run: start/end events and counters as the runtime wrote them', async () => {
    const items = 300;
    const threads = 2;
    mod._pl_tl_pipeline_start(items, threads);
    const events: TelemetryEvent[] = [];
    let dropped = 0;
    const drain = () => {
      for (let w = 0; w < threads; w++) {
        const r = readRing(heap(), mod._pl_tl_pipeline_ring(w));
        events.push(...r.events);
        dropped = Math.max(dropped, r.dropped);
        for (const e of r.events) expect(e.worker).toBe(w);
      }
    };
    const t0 = performance.now();
    while (mod._pl_tl_pipeline_finished() !== 1) {
      drain();
      if (performance.now() - t0 > 20_000) throw new Error('pipeline did not finish in 20 s');
      await tick();
    }
    mod._pl_tl_pipeline_join();
    drain();
    expect(dropped).toBe(0);
    const starts = events.filter((e) => e.kind === 'start');
    const ends = events.filter((e) => e.kind === 'end');
    expect(starts.length).toBe(items * 3);
    expect(ends.length).toBe(items * 3);
    // The last stage is serial-in-order: its start events, by time, are in input order.
    const out = starts.filter((e) => e.stage === 2).sort((a, b) => a.timeUs - b.timeUs);
    expect(out.map((e) => e.item)).toEqual([...Array(items).keys()]);
    const counters = readStageCounters(heap(), mod._pl_tl_pipeline_counters(), 3);
    for (const c of counters) {
      expect(c.itemsIn).toBe(items);
      expect(c.itemsOut).toBe(items);
      expect(c.busyUs).toBeGreaterThanOrEqual(items * 9);
    }
  });
});
