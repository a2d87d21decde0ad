// Byte layout of telemetry (contracts/telemetry.md), mirrored from
// wasm/include/pipelab/telemetry/{event,ring,stage_counters}.hpp and checked against the C++
// build by tests/wasm/telemetry-layout.test.ts.

/** Bytes per event record. */
export const EVENT_BYTES = 24;
/** Field offsets inside a record. */
export const EVENT_OFFSET = {
  timeUs: 0,
  item: 8,
  arg: 12,
  worker: 16,
  stage: 18,
  kind: 19,
  seq: 20,
} as const;

/** Ring header bytes: writer line at 0, reader line at 64. */
export const RING_HEADER_BYTES = 128;
export const RING_OFFSET = {
  writeCount: 0,
  capacity: 4,
  dropped: 8,
  worker: 12,
  readCount: 64,
} as const;

/** One 64-byte line of u64 counters per stage. */
export const STAGE_COUNTER_BYTES = 64;
export const STAGE_COUNTER_FIELDS = [
  'itemsIn',
  'itemsOut',
  'queueOccupancy',
  'busyUs',
  'idleUs',
  'blockedUs',
] as const;

export const EVENT_KINDS = [
  'start',
  'end',
  'idle',
  'steal-attempt',
  'steal-success',
  'enqueue',
  'dequeue',
  'blocked-full',
  'blocked-empty',
  'batch-write',
  'batch-publish',
  'batch-read',
  'batch-release',
  'buffer-take',
  'buffer-ready',
  'buffer-free',
  'barrier-arrive',
  'barrier-pass',
] as const;
export type EventKindName = (typeof EVENT_KINDS)[number];

/** The arg of the batch-* kinds (a BatchQueue link's real indices): bit 31 the semi-buffer, bit
 * 30 "this publish was a flush of a partial semi-buffer", bits 0..29 a slot index or an item count
 * (telemetry/event.hpp's batch_arg()). */
export interface BatchArg {
  half: 0 | 1;
  flush: boolean;
  count: number;
}
export const BATCH_HALF_BIT = 0x80000000;
export const BATCH_FLUSH_BIT = 0x40000000;
export const BATCH_COUNT_MASK = 0x3fffffff;

export function decodeBatchArg(arg: number): BatchArg {
  return {
    half: (arg & BATCH_HALF_BIT) !== 0 ? 1 : 0,
    flush: (arg & BATCH_FLUSH_BIT) !== 0,
    count: arg & BATCH_COUNT_MASK,
  };
}

export function encodeBatchArg({ half, flush, count }: BatchArg): number {
  return (
    ((half ? BATCH_HALF_BIT : 0) | (flush ? BATCH_FLUSH_BIT : 0) | (count & BATCH_COUNT_MASK)) >>> 0
  );
}

/** `item` value meaning "no item"; `stage` value meaning "no stage". */
export const NO_ITEM = 0xffffffff;
export const NO_STAGE = 0xff;
/** Barrier-runtime events' `arg` under the os schedule: the OS chose the core, unseen. */
export const NO_CORE = 0xffffffff;

export interface TelemetryEvent {
  timeUs: number;
  item: number;
  arg: number;
  worker: number;
  stage: number;
  kind: EventKindName;
  /** Per-ring sequence number; a gap means records were dropped. */
  seq: number;
}

export type StageCounterName = (typeof STAGE_COUNTER_FIELDS)[number];
export type StageCounters = Record<StageCounterName, number>;

/** A stage that has seen nothing yet. */
export const emptyStageCounters = (): StageCounters =>
  Object.fromEntries(STAGE_COUNTER_FIELDS.map((f) => [f, 0])) as StageCounters;

/** Total bytes of a ring holding `capacity` records. */
export function ringBytes(capacity: number): number {
  return RING_HEADER_BYTES + capacity * EVENT_BYTES;
}
