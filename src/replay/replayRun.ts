// A recording played back as a PipelineRun: it writes the recorded events into rings of the
// telemetry layout and the recorded counters into counter lines, paced by the wall clock times a
// speed, so every view drives from it exactly as from a live run (and its marks keep the recorded
// run's kind: measured or simulated). Besides play and pause it steps one event or one item at a
// time, either way, and seeks.
//
// Position: `cursor` events have been handed to the page, and the clock stands at or after the
// last of them. Moving forward writes the next events into the rings (while they have room). Moving
// back cannot un-apply events from the page's LiveStateTracker, which only folds forward, so the
// replay rebuilds one — from the start, not from periodic snapshots. Folding measured 180–480 ns
// an event here (a 300-item lesson run, ~5,000 events: 1–2 ms; a recording at its 500,000-event
// cap: 90–240 ms, several frames, and only for a move back or a jump past the rings' room), while a
// snapshot of the tracker's lanes
// is workers × 450 buckets × (stages + 3) doubles — over 2 MB at 64 workers — so snapshots often
// enough to matter would cost more memory than the recording they index.
//
// Counters: the page read them once a frame (and a threads run's C++ side adds items to them in
// batches), so between samples they lag the events. Items in and out of each stage are therefore
// counted from the events handed over — exact at every step, so one item forward is one more item
// out — unless the run's rings dropped events; queue occupancy and the busy, idle and blocked
// times come from the last sample at or before the clock.
import type {
  PipelineOutput,
  PipelineRun,
  RunState,
  RunSummary,
} from '../engine/pipeline/pipelineRun';
import { MAX_FRAME_MS } from '../engine/pipeline/simulationRun';
import type { LiveStateTracker } from '../live/liveState';
import { runtimeOf } from '../runtimes';
import {
  createTapWriter,
  emptyStageCounters,
  type StageCounters,
  type TapWriter,
  type TelemetryEvent,
  type TelemetryTap,
} from '../telemetry';
import { countUpTo, sampleAt, type BoardSample, type Recording } from './recording';

export const MIN_SPEED = 0.1;
export const MAX_SPEED = 4;
/** The speeds the page offers. */
export const SPEEDS = [0.1, 0.25, 0.5, 1, 2, 4] as const;

/** Ring records per worker: enough for the busiest worker's whole recording, within bounds. A
 * frame that would overfill a ring holds the clock back instead (the replay slows, drops none). */
const MIN_RING = 256;
const MAX_RING = 8192;
/** The most wall-clock time one frame moves the replay by, as it does the twin. */
export { MAX_FRAME_MS };

export interface ReplayPosition {
  /** Events handed to the page so far. */
  cursor: number;
  events: number;
  clockUs: number;
  durationUs: number;
  atEnd: boolean;
}

export class ReplayRun implements PipelineRun {
  readonly engine: Recording['engine'];
  readonly workers: number;
  private readonly ringCapacity: number;
  private writer: TapWriter;
  /** Cursor positions right after each item leaves the last stage: where item steps land. */
  private readonly itemStops: number[] = [];
  private cursor = 0;
  private clockUs = 0;
  private runState: 'running' | 'paused' | 'stopped';
  private lastRealMs: number | null = null;
  private speedX = 1;
  private rebuilt: LiveStateTracker | null = null;
  /** Whether every event of the run was recorded (no ring dropped one): then items are counted. */
  private readonly countItems: boolean;
  /** Starts and ends per stage among the events handed over. */
  private itemsIn: number[] = [];
  private itemsOut: number[] = [];
  /** The board sample last written into the tap (null: none yet, or a new writer). */
  private boardShown: BoardSample | null = null;

  constructor(
    readonly recording: Recording,
    /** A fresh tracker shaped like the page's (workers, stages, window). */
    private readonly newTracker: () => LiveStateTracker,
    options: { playing?: boolean } = {},
  ) {
    this.engine = recording.engine;
    this.workers = recording.workers;
    const perWorker = new Array<number>(this.workers).fill(0);
    const last = recording.spec.stages.length - 1;
    recording.events.forEach((e, i) => {
      perWorker[e.worker]++;
      if (e.kind === 'end' && e.stage === last) this.itemStops.push(i + 1);
    });
    const busiest = Math.max(1, ...perWorker);
    this.ringCapacity = Math.min(MAX_RING, Math.max(MIN_RING, 2 ** Math.ceil(Math.log2(busiest))));
    this.writer = this.newWriter();
    // A batch runtime's (two-stage I/O) start and end events are whole batches
    // (contracts/telemetry.md), so counting events would count batches; the barrier runtime's are
    // each thread's slices of an interval (3 threads of 4 slices counted 720 of 60 intervals). For
    // those (their modules say so: src/runtimes) the replay shows the samples, whose counters
    // count what the live run counted.
    this.countItems =
      (recording.samples.at(-1)?.dropped ?? 0) === 0 &&
      runtimeOf(recording.spec).live.eventsCountItems;
    this.recount();
    this.writeBoard();
    this.runState = options.playing === false ? 'paused' : 'running';
  }

  tap(): TelemetryTap {
    return this.writer.tap;
  }

  state(): RunState {
    return this.runState;
  }

  nowUs(): number {
    return this.clockUs;
  }

  tick(realNowMs: number): void {
    if (this.runState === 'running') {
      if (this.lastRealMs !== null) {
        const frameMs = Math.min(realNowMs - this.lastRealMs, MAX_FRAME_MS);
        const target = this.clockUs + frameMs * 1000 * this.speedX;
        this.play(Math.min(target, this.recording.durationUs));
      }
      this.lastRealMs = realNowMs;
      if (this.position().atEnd) this.pause();
    }
    this.writeCounters();
  }

  pause(): void {
    if (this.runState !== 'running') return;
    this.runState = 'paused';
    this.lastRealMs = null;
  }

  /** Plays on; from the end, plays again from the start. */
  resume(): void {
    if (this.runState !== 'paused') return;
    if (this.position().atEnd) this.moveTo(0, 0);
    this.runState = 'running';
  }

  stop(): void {
    this.runState = 'stopped';
  }

  /** The run as it stood at the replay's clock: as the live run counted, the last stage's items
   * out while it ran, and at its end the runtime's own count, which also counts items that left
   * elsewhere (the sieve's multiples: 1999 numbers, of which 303 primes reach the last stage). */
  summary(): RunSummary {
    const completed = this.position().atEnd
      ? this.recording.summary.completed
      : (this.counters().at(-1)?.itemsOut ?? 0);
    return {
      items: this.recording.summary.items,
      completed,
      elapsedUs: this.clockUs,
      itemsPerSec: this.clockUs > 0 ? (completed / this.clockUs) * 1e6 : 0,
    };
  }

  error(): string | null {
    return null;
  }
  /** A recording keeps events, not the text a two-stage output wrote. */
  output(): PipelineOutput | null {
    return null;
  }

  speed(): number {
    return this.speedX;
  }

  setSpeed(speed: number): void {
    if (!Number.isFinite(speed) || speed < MIN_SPEED || speed > MAX_SPEED)
      throw new RangeError(
        `replay speed ${speed} is out of range (allowed ${MIN_SPEED}..${MAX_SPEED})`,
      );
    this.speedX = speed;
  }

  position(): ReplayPosition {
    const events = this.recording.events.length;
    return {
      cursor: this.cursor,
      events,
      clockUs: this.clockUs,
      durationUs: this.recording.durationUs,
      atEnd: this.cursor === events && this.clockUs >= this.recording.durationUs,
    };
  }

  /** One event forward (+1) or back (-1); the clock moves to the last event handed over. */
  stepEvent(direction: 1 | -1): void {
    const to = this.cursor + direction;
    if (to < 0 || to > this.recording.events.length) return;
    this.moveTo(to, this.timeOfCursor(to));
  }

  /** To just after the next (+1) or previous (-1) item leaves the last stage (or to an end). */
  stepItem(direction: 1 | -1): void {
    const stops = this.itemStops;
    if (direction > 0) {
      const next = stops.find((p) => p > this.cursor);
      if (next === undefined) this.moveTo(this.recording.events.length, this.recording.durationUs);
      else this.moveTo(next, this.timeOfCursor(next));
    } else {
      let previous = 0;
      for (const p of stops) if (p < this.cursor) previous = p;
      this.moveTo(previous, this.timeOfCursor(previous));
    }
  }

  /** To run time `timeUs`: every event at or before it handed over. */
  seek(timeUs: number): void {
    const end = this.recording.durationUs;
    if (!Number.isFinite(timeUs) || timeUs < 0 || timeUs > end)
      throw new RangeError(`replay time ${timeUs} µs is out of range (allowed 0..${end})`);
    this.moveTo(countUpTo(this.recording.events, timeUs), timeUs);
  }

  /** The tracker rebuilt by the last move back (once; null when none is waiting): the page
   * replaces its own with it before folding the next frame. */
  takeRebuilt(): LiveStateTracker | null {
    const t = this.rebuilt;
    this.rebuilt = null;
    return t;
  }

  private timeOfCursor(cursor: number): number {
    return cursor === 0 ? 0 : this.recording.events[cursor - 1].timeUs;
  }

  /** Hands over events up to `targetUs` while the rings have room. */
  private play(targetUs: number): void {
    if (this.handOver(countUpTo(this.recording.events, targetUs)))
      this.clockUs = Math.max(this.clockUs, targetUs);
    // A ring the page has not read yet is full: hold the clock at the last event handed over.
    else this.clockUs = Math.max(this.clockUs, this.timeOfCursor(this.cursor));
  }

  /** Writes events [cursor, until) into their workers' rings; false if a full ring stopped it. */
  private handOver(until: number): boolean {
    const rings = this.writer.rings;
    for (; this.cursor < until; this.cursor++) {
      const e = this.recording.events[this.cursor];
      if (!rings[e.worker].push(e)) return false;
      this.countItem(e);
    }
    return true;
  }

  /** Steps and seeks pause; forward through the rings when they have room, else a rebuild. */
  private moveTo(cursor: number, clockUs: number): void {
    this.pause();
    if (cursor >= this.cursor && this.fits(this.cursor, cursor)) {
      this.handOver(cursor);
    } else {
      const tracker = this.newTracker();
      tracker.advance(this.recording.events.slice(0, cursor), clockUs);
      this.rebuilt = tracker;
      this.writer = this.newWriter();
      this.cursor = cursor;
      this.recount();
    }
    this.clockUs = clockUs;
    this.writeCounters();
  }

  /** Whether events [from, to) fit the rings' free room. */
  private fits(from: number, to: number): boolean {
    const need = new Array<number>(this.workers).fill(0);
    for (let i = from; i < to; i++) need[this.recording.events[i].worker]++;
    return need.every((n, w) => n <= this.writer.rings[w].free());
  }

  /** Rings and counters; a phaser recording's board too, sized for its largest board. */
  private newWriter(): TapWriter {
    const { boards, spec } = this.recording;
    const board = boards.length
      ? {
          taskCapacity: Math.max(1, ...boards.map((b) => b.board.tasks.length)),
          streamCapacity: Math.max(1, ...boards.map((b) => b.board.streams.length)),
        }
      : undefined;
    this.boardShown = null;
    return createTapWriter(this.workers, spec.stages.length, this.ringCapacity, board);
  }

  /** Each stage's counters at the clock: the last sample's, with items counted when exact. */
  private counters(): StageCounters[] {
    const sample = sampleAt(this.recording.samples, this.clockUs);
    return this.recording.spec.stages.map((_, s) => {
      const line = sample?.counters[s] ?? emptyStageCounters();
      return this.countItems
        ? { ...line, itemsIn: this.itemsIn[s], itemsOut: this.itemsOut[s] }
        : line;
    });
  }

  private writeCounters(): void {
    this.writer.writeCounters(this.counters());
    const sample = sampleAt(this.recording.samples, this.clockUs);
    this.writer.rings[0]?.setDropped(sample?.dropped ?? 0);
    this.writeBoard();
  }

  /** A phaser run's board as it was recorded at the clock (before its first: the first). */
  private writeBoard(): void {
    const { boards } = this.recording;
    if (!this.writer.board || boards.length === 0) return;
    const shown = sampleAt(boards, this.clockUs) ?? boards[0];
    if (shown === this.boardShown) return;
    this.writer.board.writeFrame(shown.board);
    this.boardShown = shown;
  }

  private countItem(e: TelemetryEvent): void {
    if (e.kind === 'start' && e.stage < this.itemsIn.length) this.itemsIn[e.stage]++;
    else if (e.kind === 'end' && e.stage < this.itemsOut.length) this.itemsOut[e.stage]++;
  }

  /** Items in and out counted again over the events handed over. */
  private recount(): void {
    const stages = this.recording.spec.stages.length;
    this.itemsIn = new Array<number>(stages).fill(0);
    this.itemsOut = new Array<number>(stages).fill(0);
    for (let i = 0; i < this.cursor; i++) this.countItem(this.recording.events[i]);
  }
}
