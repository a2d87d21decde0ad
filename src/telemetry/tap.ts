// Where a running pipeline's telemetry lives — one ring per worker and one counter line per stage,
// in wasm memory (threads) or in an ArrayBuffer the simulation writes (contracts/telemetry.md
// layout either way) — and the once-per-frame read of it. Views cannot tell the engines apart.
import { readRing, readStageCounters } from './decode';
import {
  RING_OFFSET,
  ringBytes,
  STAGE_COUNTER_BYTES,
  type StageCounters,
  type TelemetryEvent,
} from './layout';
import { BOARD_HEADER, boardBytes, readBoard, type BoardFrame } from './phaserBoard';

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

/**
 * A copy of the tap's rings (with what is still unread in them), counter lines and board in a
 * buffer of its own, laid out the same way. A run that has ended keeps its last state in it: the
 * wasm memory its threads wrote is the next run's once that starts, possibly before the page has
 * read the ended run's last frame. Call it only when nothing writes the tap any more.
 */
export function copyTap(tap: TelemetryTap): TelemetryTap {
  const u32 = (offset: number) => new DataView(tap.buffer, offset, 4).getUint32(0, true);
  const regions: Array<{ from: number; bytes: number }> = tap.ringOffsets.map((from) => ({
    from,
    bytes: ringBytes(u32(from + RING_OFFSET.capacity)),
  }));
  regions.push({ from: tap.countersOffset, bytes: tap.stages * STAGE_COUNTER_BYTES });
  if (tap.boardOffset !== undefined)
    regions.push({
      from: tap.boardOffset,
      bytes: boardBytes(
        u32(tap.boardOffset + BOARD_HEADER.taskCapacity * 4),
        u32(tap.boardOffset + BOARD_HEADER.streamCapacity * 4),
      ),
    });
  // Each region starts on a cache line, as in wasm memory (counters and board need 8 and 4).
  const at: number[] = [];
  let size = 0;
  for (const r of regions) {
    at.push(size);
    size += Math.ceil(r.bytes / 64) * 64;
  }
  const buffer = new ArrayBuffer(size);
  const bytes = new Uint8Array(buffer);
  regions.forEach((r, i) => bytes.set(new Uint8Array(tap.buffer, r.from, r.bytes), at[i]));
  const rings = tap.ringOffsets.length;
  return {
    buffer,
    ringOffsets: at.slice(0, rings),
    countersOffset: at[rings],
    stages: tap.stages,
    ...(tap.boardOffset !== undefined ? { boardOffset: at[rings + 1] } : {}),
  };
}
