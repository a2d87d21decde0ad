// Writes telemetry in the exact C++ layout (contracts/telemetry.md): for tests and for the
// simulation twin, which emits the same rings the wasm workers do. RingWriter plays the worker's
// role: it never blocks; when the ring is full it counts a drop, and each record's seq is written
// + dropped.
import {
  EVENT_BYTES,
  EVENT_KINDS,
  EVENT_OFFSET,
  RING_HEADER_BYTES,
  RING_OFFSET,
  STAGE_COUNTER_BYTES,
  STAGE_COUNTER_FIELDS,
  ringBytes,
  type StageCounters,
  type TelemetryEvent,
} from './layout';

export type EventInput = Omit<TelemetryEvent, 'seq'>;

export class RingWriter {
  readonly buffer: ArrayBufferLike;
  readonly byteOffset: number;
  readonly capacity: number;
  private readonly header: Uint32Array;
  private readonly view: DataView;

  /** Creates a ring in `buffer` at `byteOffset` (default: a fresh ArrayBuffer of the exact size). */
  constructor(capacity: number, worker: number, buffer?: ArrayBufferLike, byteOffset = 0) {
    if (!Number.isInteger(capacity) || capacity < 1 || (capacity & (capacity - 1)) !== 0) {
      throw new Error(`ring capacity ${capacity} must be a power of two`);
    }
    this.buffer = buffer ?? new ArrayBuffer(ringBytes(capacity));
    this.byteOffset = byteOffset;
    this.capacity = capacity;
    this.header = new Uint32Array(this.buffer, byteOffset, RING_HEADER_BYTES / 4);
    this.view = new DataView(this.buffer, byteOffset + RING_HEADER_BYTES, capacity * EVENT_BYTES);
    this.header.fill(0);
    this.header[RING_OFFSET.capacity / 4] = capacity;
    this.header[RING_OFFSET.worker / 4] = worker;
  }

  /** Record slots the reader has freed: how many pushes succeed before the next read. */
  free(): number {
    const h = this.header;
    const used = (h[RING_OFFSET.writeCount / 4] - Atomics.load(h, RING_OFFSET.readCount / 4)) >>> 0;
    return this.capacity - used;
  }

  /** Sets the drop count a reader sees (a replay restores the count its recording saw). */
  setDropped(count: number): void {
    this.header[RING_OFFSET.dropped / 4] = count;
  }

  /** Appends one record; false (and a counted drop) when the reader has not freed a slot. */
  push(e: EventInput): boolean {
    const h = this.header;
    const write = h[RING_OFFSET.writeCount / 4];
    const read = Atomics.load(h, RING_OFFSET.readCount / 4);
    const dropped = h[RING_OFFSET.dropped / 4];
    if ((write - read) >>> 0 === this.capacity) {
      h[RING_OFFSET.dropped / 4] = dropped + 1;
      return false;
    }
    const at = (write % this.capacity) * EVENT_BYTES;
    const kind = EVENT_KINDS.indexOf(e.kind);
    if (kind < 0) throw new Error(`telemetry: unknown event kind ${e.kind}`);
    const v = this.view;
    v.setFloat64(at + EVENT_OFFSET.timeUs, e.timeUs, true);
    v.setUint32(at + EVENT_OFFSET.item, e.item, true);
    v.setUint32(at + EVENT_OFFSET.arg, e.arg, true);
    v.setUint16(at + EVENT_OFFSET.worker, e.worker, true);
    v.setUint8(at + EVENT_OFFSET.stage, e.stage);
    v.setUint8(at + EVENT_OFFSET.kind, kind);
    v.setUint32(at + EVENT_OFFSET.seq, (write + dropped) >>> 0, true);
    Atomics.store(h, RING_OFFSET.writeCount / 4, (write + 1) >>> 0);
    return true;
  }
}

/** Writes counter lines for `counters.length` stages at `byteOffset` of a fresh or given buffer. */
export function encodeStageCounters(
  counters: StageCounters[],
  buffer: ArrayBufferLike = new ArrayBuffer(counters.length * STAGE_COUNTER_BYTES),
  byteOffset = 0,
): ArrayBufferLike {
  const words = new BigUint64Array(buffer, byteOffset, (counters.length * STAGE_COUNTER_BYTES) / 8);
  counters.forEach((line, s) => {
    STAGE_COUNTER_FIELDS.forEach((field, i) => {
      words[(s * STAGE_COUNTER_BYTES) / 8 + i] = BigInt(Math.max(0, Math.round(line[field])));
    });
  });
  return buffer;
}
