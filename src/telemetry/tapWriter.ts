// A telemetry tap written from TypeScript: one ring per worker, then one counter line per stage,
// in one ArrayBuffer laid out as a wasm run's (contracts/telemetry.md). The twin and the replayer fill it;
// readTap reads it exactly as it reads a threads run's, so views cannot tell them apart.
import { RingWriter, encodeStageCounters } from './encode';
import { ringBytes, STAGE_COUNTER_BYTES, type StageCounters } from './layout';
import type { TelemetryTap } from './tap';

export interface TapWriter {
  tap: TelemetryTap;
  /** index = worker. */
  rings: RingWriter[];
  writeCounters(counters: StageCounters[]): void;
}

export function createTapWriter(workers: number, stages: number, ringCapacity: number): TapWriter {
  const ringSize = ringBytes(ringCapacity);
  const countersOffset = workers * ringSize;
  const buffer = new ArrayBuffer(countersOffset + stages * STAGE_COUNTER_BYTES);
  const rings = Array.from(
    { length: workers },
    (_, w) => new RingWriter(ringCapacity, w, buffer, w * ringSize),
  );
  return {
    tap: { buffer, ringOffsets: rings.map((r) => r.byteOffset), countersOffset, stages },
    rings,
    writeCounters: (counters) => encodeStageCounters(counters, buffer, countersOffset),
  };
}
