// A telemetry tap written from TypeScript: one ring per worker, then one counter line per stage,
// (and a phaser run's board) in one ArrayBuffer laid out as a wasm run's (contracts/telemetry.md). The twin and the replayer fill it;
// readTap reads it exactly as it reads a threads run's, so views cannot tell them apart.
import { RingWriter, encodeStageCounters } from './encode';
import { ringBytes, STAGE_COUNTER_BYTES, type StageCounters } from './layout';
import { BoardWriter, boardBytes } from './phaserBoard';
import type { TelemetryTap } from './tap';

export interface TapWriter {
  tap: TelemetryTap;
  /** index = worker. */
  rings: RingWriter[];
  writeCounters(counters: StageCounters[]): void;
  /** A phaser run's board after the counters (when asked for). */
  board?: BoardWriter;
}

export function createTapWriter(
  workers: number,
  stages: number,
  ringCapacity: number,
  board?: { taskCapacity: number; streamCapacity: number },
): TapWriter {
  const ringSize = ringBytes(ringCapacity);
  const countersOffset = workers * ringSize;
  const boardOffset = countersOffset + stages * STAGE_COUNTER_BYTES;
  const buffer = new ArrayBuffer(
    boardOffset + (board ? boardBytes(board.taskCapacity, board.streamCapacity) : 0),
  );
  const rings = Array.from(
    { length: workers },
    (_, w) => new RingWriter(ringCapacity, w, buffer, w * ringSize),
  );
  return {
    tap: {
      buffer,
      ringOffsets: rings.map((r) => r.byteOffset),
      countersOffset,
      stages,
      ...(board ? { boardOffset } : {}),
    },
    rings,
    writeCounters: (counters) => encodeStageCounters(counters, buffer, countersOffset),
    ...(board
      ? {
          board: new BoardWriter(buffer, boardOffset, board.taskCapacity, board.streamCapacity),
        }
      : {}),
  };
}
