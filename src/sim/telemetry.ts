// Telemetry the twin emits: the record fields and kind codes of src/telemetry/FORMAT.md.

/** Kind codes exactly as the 24-byte record's u8 `kind` field. */
export const EventKind = {
  start: 0,
  end: 1,
  idle: 2,
  stealAttempt: 3,
  stealSuccess: 4,
  enqueue: 5,
  dequeue: 6,
  blockedFull: 7,
  blockedEmpty: 8,
} as const;
export type EventKindCode = (typeof EventKind)[keyof typeof EventKind];

/** Names as FORMAT.md writes them, indexed by code. */
export const EVENT_KIND_NAMES = [
  'start',
  'end',
  'idle',
  'steal-attempt',
  'steal-success',
  'enqueue',
  'dequeue',
  'blocked-full',
  'blocked-empty',
] as const;

export const NO_ITEM = 0xffffffff;
export const NO_STAGE = 0xff;

/** One record without `seq`: the per-worker sequence number belongs to the ring that stores it. */
export interface TelemetryEvent {
  timeUs: number;
  item: number;
  arg: number;
  worker: number;
  stage: number;
  kind: EventKindCode;
}

export type TelemetrySink = (event: TelemetryEvent) => void;

/** Per-stage counters, the same six as the runtime's counter line. */
export interface StageCounters {
  itemsIn: number;
  itemsOut: number;
  queueOccupancy: number;
  busyUs: number;
  idleUs: number;
  blockedUs: number;
}

export const emptyCounters = (): StageCounters => ({
  itemsIn: 0,
  itemsOut: 0,
  queueOccupancy: 0,
  busyUs: 0,
  idleUs: 0,
  blockedUs: 0,
});
