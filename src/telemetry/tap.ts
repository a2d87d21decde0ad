// Where a running pipeline's telemetry lives — one ring per worker and one counter line per stage,
// in wasm memory (threads) or in an ArrayBuffer the simulation writes (contracts/telemetry.md
// layout either way) — and the once-per-frame read of it. Views cannot tell the engines apart.
import { readRing, readStageCounters } from './decode';
import type { StageCounters, TelemetryEvent } from './layout';
import { readBoard, type BoardFrame } from './phaserBoard';

export interface TelemetryTap {
  buffer: ArrayBufferLike;
  /** Byte offset of each worker's ring header; index = worker. */
  ringOffsets: number[];
  /** Byte offset of the first stage counter line (8-byte aligned). */
  countersOffset: number;
  stages: number;
  /** Phaser runs: byte offset of the task and stream board (phaserBoard.ts). */
  boardOffset?: number;
}

export interface TapFrame {
  /** Every event written since the previous read, all workers merged in time order. */
  events: TelemetryEvent[];
  counters: StageCounters[];
  /** Records the workers had to drop so far (rings full): shown, never hidden. */
  dropped: number;
  /** Phaser runs: every task and stream now (a replay's: as recorded at its clock); null or
   * absent for other runtimes. */
  board?: BoardFrame | null;
}

export function readTap(tap: TelemetryTap): TapFrame {
  const events: TelemetryEvent[] = [];
  let dropped = 0;
  for (const offset of tap.ringOffsets) {
    const r = readRing(tap.buffer, offset);
    for (const e of r.events) events.push(e);
    dropped += r.dropped;
  }
  events.sort((a, b) => a.timeUs - b.timeUs);
  return {
    events,
    counters: readStageCounters(tap.buffer, tap.countersOffset, tap.stages),
    dropped,
    board: tap.boardOffset === undefined ? null : readBoard(tap.buffer, tap.boardOffset),
  };
}
