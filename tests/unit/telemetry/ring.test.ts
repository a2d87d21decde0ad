// Telemetry ring writer and reader in TypeScript: round trip, wrap-around, drops counted with seq
// gaps, readCount advancing, counters, and unknown kinds rejected.
import { describe, expect, it } from 'vitest';
import {
  EVENT_BYTES,
  NO_STAGE,
  RING_HEADER_BYTES,
  RING_OFFSET,
  RingWriter,
  createTapWriter,
  emptyStageCounters,
  encodeStageCounters,
  readRing,
  readStageCounters,
  readTap,
  type EventInput,
} from '../../../src/telemetry';

const ev = (i: number, kind: EventInput['kind'] = 'start'): EventInput => ({
  timeUs: i * 1.25,
  item: i,
  arg: i * 3,
  worker: 2,
  stage: i % 4,
  kind,
});

describe('telemetry ring', () => {
  it('round-trips records and advances readCount', () => {
    const w = new RingWriter(8, 2);
    for (let i = 0; i < 5; i++) expect(w.push(ev(i, i % 2 ? 'end' : 'steal-success'))).toBe(true);
    const r = readRing(w.buffer, 0);
    expect(r.worker).toBe(2);
    expect(r.capacity).toBe(8);
    expect(r.dropped).toBe(0);
    expect(r.events).toEqual(
      [0, 1, 2, 3, 4].map((i) => ({ ...ev(i, i % 2 ? 'end' : 'steal-success'), seq: i })),
    );
    expect(new DataView(w.buffer).getUint32(RING_OFFSET.readCount, true)).toBe(5);
    expect(readRing(w.buffer, 0).events).toEqual([]);
  });

  it('wraps around and drops when full, with seq gaps revealing drops', () => {
    const w = new RingWriter(4, 0);
    for (let i = 0; i < 6; i++) w.push(ev(i));
    const first = readRing(w.buffer, 0);
    expect(first.events.map((e) => e.item)).toEqual([0, 1, 2, 3]);
    expect(first.dropped).toBe(2);
    for (let i = 6; i < 9; i++) w.push(ev(i));
    const second = readRing(w.buffer, 0, 2);
    expect(second.events.map((e) => [e.item, e.seq])).toEqual([
      [6, 6],
      [7, 7],
    ]);
    expect(readRing(w.buffer, 0).events.map((e) => e.item)).toEqual([8]);
  });

  it('free() counts the slots the reader has freed; setDropped() sets what the reader sees', () => {
    const w = new RingWriter(4, 0);
    expect(w.free()).toBe(4);
    for (let i = 0; i < 3; i++) w.push(ev(i));
    expect(w.free()).toBe(1);
    readRing(w.buffer, 0, 2);
    expect(w.free()).toBe(3);
    w.setDropped(17);
    expect(readRing(w.buffer, 0).dropped).toBe(17);
  });

  it('a tap writer lays out rings and counters where readTap finds them', () => {
    const t = createTapWriter(3, 2, 8);
    t.rings[2].push({ ...ev(5), worker: 2 });
    t.rings[0].push({ ...ev(9), worker: 0 });
    const lines = [0, 1].map((s) => ({ ...emptyStageCounters(), itemsOut: 40 + s }));
    t.writeCounters(lines);
    const frame = readTap(t.tap);
    expect(frame.events.map((e) => [e.worker, e.item])).toEqual([
      [2, 5],
      [0, 9],
    ]);
    expect(frame.counters).toEqual(lines);
  });

  it('reads a ring at an offset inside a shared buffer', () => {
    const sab = new SharedArrayBuffer(256 + RING_HEADER_BYTES + 16 * EVENT_BYTES);
    const w = new RingWriter(16, 7, sab, 256);
    w.push({ ...ev(1, 'blocked-empty'), stage: NO_STAGE });
    const r = readRing(sab, 256);
    expect(r.worker).toBe(7);
    expect(r.events[0]).toMatchObject({ kind: 'blocked-empty', stage: 255 });
  });

  it('rejects unknown kinds and bad capacities', () => {
    const w = new RingWriter(4, 0);
    new DataView(w.buffer).setUint8(RING_HEADER_BYTES + 19, 42);
    new DataView(w.buffer).setUint32(RING_OFFSET.writeCount, 1, true);
    expect(() => readRing(w.buffer, 0)).toThrow('unknown event kind 42');
    expect(() => new RingWriter(6, 0)).toThrow('ring capacity 6 must be a power of two');
  });

  it('round-trips stage counters', () => {
    const lines = [0, 1, 2].map((s) => ({
      itemsIn: 10 + s,
      itemsOut: 9 + s,
      queueOccupancy: s,
      busyUs: 1000 * s,
      idleUs: 5,
      blockedUs: 7,
    }));
    expect(readStageCounters(encodeStageCounters(lines), 0, 3)).toEqual(lines);
  });
});
