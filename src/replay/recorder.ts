// Records a run as the page reads it: each frame's events and counters, and a phaser run's board
// where it changed (exactly what the live views were given), up to a cap. At the cap it stops keeping anything and marks where: the
// recording stays complete, and replayable, up to that run time while the run itself goes on.
import type { RunSummary } from '../engine/pipeline/pipelineRun';
import type { TapFrame, TelemetryEvent } from '../telemetry';
import {
  canonicalOrder,
  boardRecords,
  MAX_BOARD_RECORDS,
  MAX_EVENTS,
  MAX_SAMPLES,
  type BoardSample,
  type CounterSample,
  type Recording,
  type RunEnd,
} from './recording';

/** What is known before the run starts. */
export type RecordingMeta = Pick<
  Recording,
  'recordedAt' | 'origin' | 'engine' | 'lesson' | 'spec' | 'workers'
>;

export interface RecorderLimits {
  maxEvents: number;
  maxSamples: number;
  /** Phaser runs: task and stream records over all kept board frames. */
  maxBoardRecords?: number;
}

export class Recorder {
  private readonly events: TelemetryEvent[] = [];
  private readonly samples: CounterSample[] = [];
  private readonly boards: BoardSample[] = [];
  private boardRecordCount = 0;
  /** The last board kept, as text: a frame whose board did not change keeps none. */
  private lastBoard = '';
  /** Run time where the cap cut the recording; everything before it is kept. */
  private cutUs: number | null = null;
  private lastNowUs = 0;

  constructor(
    readonly meta: RecordingMeta,
    readonly limits: RecorderLimits = { maxEvents: MAX_EVENTS, maxSamples: MAX_SAMPLES },
  ) {}

  get eventCount(): number {
    return this.events.length;
  }

  /** Run time where the cap was reached, or null while under it. */
  get capReachedAtUs(): number | null {
    return this.cutUs;
  }

  /** One frame as readTap returned it (events in time order), read at run time `nowUs`. */
  frame(f: TapFrame, nowUs: number): void {
    this.lastNowUs = Math.max(this.lastNowUs, nowUs);
    if (this.cutUs !== null) return;
    const room = this.limits.maxEvents - this.events.length;
    if (f.events.length > room) {
      // Cut at the first event that does not fit: the recording is complete before that time.
      this.cutUs = f.events[room].timeUs;
      for (const e of f.events.slice(0, room)) if (e.timeUs < this.cutUs) this.events.push(e);
      return;
    }
    const board = f.board ? JSON.stringify(f.board) : this.lastBoard;
    const newBoard = f.board && board !== this.lastBoard ? f.board : null;
    const boardRoom = (this.limits.maxBoardRecords ?? MAX_BOARD_RECORDS) - this.boardRecordCount;
    if (
      this.samples.length === this.limits.maxSamples ||
      (newBoard && boardRecords(newBoard) > boardRoom)
    ) {
      // Cut where the last kept frame was read: everything before it, and its board, are kept.
      this.cutUs = this.samples.at(-1)?.timeUs ?? 0;
      return;
    }
    for (const e of f.events) this.events.push(e);
    // Never before the one before it (a threads run's end is stated in the C++ clock, which the
    // page's may have passed), nor before the events the frame carries (the counters were read
    // after them).
    const timeUs = Math.max(nowUs, this.samples.at(-1)?.timeUs ?? 0, f.events.at(-1)?.timeUs ?? 0);
    this.samples.push({ timeUs, dropped: f.dropped, counters: f.counters });
    if (newBoard) {
      this.boards.push({ timeUs, board: newBoard });
      this.boardRecordCount += boardRecords(newBoard);
      this.lastBoard = board;
    }
  }

  /** The recording of the run that ended (or was replaced) with this summary at run time `endUs`. */
  finish(endedAs: RunEnd, summary: RunSummary, endUs: number): Recording {
    const cut = this.cutUs;
    const kept = cut === null ? this.events : this.events.filter((e) => e.timeUs < cut);
    // Rings are read once per frame, so a slow worker's event can arrive a frame after a later one.
    const events = canonicalOrder(kept);
    const samples = cut === null ? this.samples : this.samples.filter((s) => s.timeUs <= cut);
    const boards = cut === null ? this.boards : this.boards.filter((b) => b.timeUs <= cut);
    const durationUs =
      cut ??
      Math.max(endUs, this.lastNowUs, events.at(-1)?.timeUs ?? 0, samples.at(-1)?.timeUs ?? 0);
    return {
      ...this.meta,
      summary,
      endedAs,
      durationUs,
      cap: { maxEvents: this.limits.maxEvents, reachedAtUs: cut },
      events,
      samples,
      boards,
    };
  }
}
