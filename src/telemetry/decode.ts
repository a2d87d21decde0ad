// Reads telemetry written by the C++ workers (or by encode.ts) out of an ArrayBuffer or the wasm
// memory's SharedArrayBuffer: ring records into event objects, and stage counter lines.
// The reader role of contracts/telemetry.md: load writeCount (acquire: Atomics.load on shared
// memory), copy the records out, then store readCount so the worker may reuse the slots.
import {
  EVENT_BYTES,
  EVENT_KINDS,
  EVENT_OFFSET,
  RING_HEADER_BYTES,
  RING_OFFSET,
  STAGE_COUNTER_BYTES,
  STAGE_COUNTER_FIELDS,
  type StageCounters,
  type TelemetryEvent,
} from './layout';

export interface RingRead {
  events: TelemetryEvent[];
  /** Records the worker dropped because the ring was full (since the run started). */
  dropped: number;
  worker: number;
  capacity: number;
}

const isShared = (b: ArrayBufferLike): boolean =>
  typeof SharedArrayBuffer !== 'undefined' && b instanceof SharedArrayBuffer;

function loadU32(buffer: ArrayBufferLike, byteOffset: number): number {
  if (isShared(buffer)) return Atomics.load(new Uint32Array(buffer, byteOffset, 1), 0) >>> 0;
  return new DataView(buffer, byteOffset, 4).getUint32(0, true);
}

function storeU32(buffer: ArrayBufferLike, byteOffset: number, value: number): void {
  if (isShared(buffer)) Atomics.store(new Uint32Array(buffer, byteOffset, 1), 0, value);
  else new DataView(buffer, byteOffset, 4).setUint32(0, value, true);
}

/** Decodes one record at `byteOffset`. */
export function decodeEvent(view: DataView, byteOffset: number): TelemetryEvent {
  const code = view.getUint8(byteOffset + EVENT_OFFSET.kind);
  const kind = EVENT_KINDS[code];
  if (kind === undefined) throw new Error(`telemetry: unknown event kind ${code}`);
  return {
    timeUs: view.getFloat64(byteOffset + EVENT_OFFSET.timeUs, true),
    item: view.getUint32(byteOffset + EVENT_OFFSET.item, true),
    arg: view.getUint32(byteOffset + EVENT_OFFSET.arg, true),
    worker: view.getUint16(byteOffset + EVENT_OFFSET.worker, true),
    stage: view.getUint8(byteOffset + EVENT_OFFSET.stage),
    kind,
    seq: view.getUint32(byteOffset + EVENT_OFFSET.seq, true),
  };
}

/**
 * Consumes every record written since the last call (at most `max`), advancing readCount.
 * `ringOffset` is the byte offset of the ring header (4-byte aligned) inside `buffer`.
 */
export function readRing(buffer: ArrayBufferLike, ringOffset: number, max = Infinity): RingRead {
  const capacity = loadU32(buffer, ringOffset + RING_OFFSET.capacity);
  const worker = loadU32(buffer, ringOffset + RING_OFFSET.worker);
  const write = loadU32(buffer, ringOffset + RING_OFFSET.writeCount);
  const read = loadU32(buffer, ringOffset + RING_OFFSET.readCount);
  const available = (write - read) >>> 0;
  const n = Math.min(available, max);
  const view = new DataView(buffer, ringOffset + RING_HEADER_BYTES, capacity * EVENT_BYTES);
  const events: TelemetryEvent[] = [];
  for (let i = 0; i < n; i++) {
    const slot = ((read + i) >>> 0) % capacity;
    events.push(decodeEvent(view, slot * EVENT_BYTES));
  }
  storeU32(buffer, ringOffset + RING_OFFSET.readCount, (read + n) >>> 0);
  const dropped = loadU32(buffer, ringOffset + RING_OFFSET.dropped);
  return { events, dropped, worker, capacity };
}

/** Reads `stages` counter lines starting at `byteOffset` (8-byte aligned). */
export function readStageCounters(
  buffer: ArrayBufferLike,
  byteOffset: number,
  stages: number,
): StageCounters[] {
  const words = new BigUint64Array(buffer, byteOffset, (stages * STAGE_COUNTER_BYTES) / 8);
  const shared = isShared(buffer);
  const out: StageCounters[] = [];
  for (let s = 0; s < stages; s++) {
    const line = {} as StageCounters;
    STAGE_COUNTER_FIELDS.forEach((field, i) => {
      const at = (s * STAGE_COUNTER_BYTES) / 8 + i;
      line[field] = Number(shared ? Atomics.load(words, at) : words[at]);
    });
    out.push(line);
  }
  return out;
}
