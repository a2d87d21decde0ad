// A recorded run: its telemetry events in time order (bounded by a cap), the stage counters as the
// page read them once per frame, and what is needed to say where it came from — spec, engine,
// browser, cores, date, how it ended and its summary. FORMAT.md gives the file form.
import { dataKindOf, type EngineKind, type RunSummary } from '../engine/pipeline/pipelineRun';
import type { ExperimentSpec } from '../spec/experimentSpec';
import type { BoardFrame, StageCounters, TelemetryEvent } from '../telemetry';

export const RECORDING_FORMAT = 'pipelab-recording';
export const RECORDING_VERSION = 1;

/** Events kept at most: about 20 MB of file (40 bytes an event) and 50 MB in memory. Lesson 6's
 * sieve on real threads makes about 241,000 events (six runs, 2026-11-28: 239,554 to 243,324),
 * which left the old cap of 250,000 under 4% to spare before a recording of it was cut. */
export const MAX_EVENTS = 500_000;
/** Counter samples kept at most: one per frame, so ten minutes at 60 frames a second. */
export const MAX_SAMPLES = 36_000;

/** Phaser runs: task and stream records kept at most over all board frames (a sieve's board
 * grows to thousands of records, and it is kept only in frames where it changed): about 16 MB
 * of file at ~40 bytes a record. */
export const MAX_BOARD_RECORDS = 400_000;

export type RunEnd = 'done' | 'stopped' | 'error';
export const RUN_ENDS: readonly RunEnd[] = ['done', 'stopped', 'error'];

/** The stage counters and dropped-event count the page read at one frame, at run time `timeUs`. */
export interface CounterSample {
  timeUs: number;
  /** Records the workers' rings had dropped so far (all workers). */
  dropped: number;
  /** index = stage. */
  counters: StageCounters[];
}

/** A phaser run's board (every task and stream) as the page read it at run time `timeUs`. */
export interface BoardSample {
  timeUs: number;
  board: BoardFrame;
}

export interface RecordingOrigin {
  /** navigator.userAgent of the recording browser. */
  userAgent: string;
  /** navigator.hardwareConcurrency there. */
  cores: number;
}

export interface Recording {
  /** ISO 8601, UTC. */
  recordedAt: string;
  origin: RecordingOrigin;
  engine: EngineKind;
  /** The lesson and control values it was recorded on (null: not from a lesson page). */
  lesson: { slug: string; values: Record<string, number | string> } | null;
  spec: ExperimentSpec;
  workers: number;
  /** The run's own summary when it ended (the whole run, even past a cap). */
  summary: RunSummary;
  endedAs: RunEnd;
  /** Run time the recording covers: the run's end, or where the cap cut it. */
  durationUs: number;
  cap: {
    maxEvents: number;
    /** Run time where the cap cut the recording (complete before it), or null. */
    reachedAtUs: number | null;
  };
  /** Time order; ties by worker (the order readTap hands them to the page). */
  events: TelemetryEvent[];
  /** Time order. */
  samples: CounterSample[];
  /** Phaser runs: the board at each frame where it changed, in time order (empty otherwise). */
  boards: BoardSample[];
}

/** "Replay of a measured run" or "… simulated run": the label every replayed number carries. */
export function replayKind(engine: EngineKind): string {
  return `Replay of a ${dataKindOf(engine)} run`;
}

/** "Chrome 131", "Firefox 133", "Safari 17.2" — or the user agent's start when unrecognised. */
export function browserName(userAgent: string): string {
  // Order matters: Edge and Opera also say Chrome, Chrome also says Safari.
  const known: Array<[RegExp, string]> = [
    [/Edg\/(\d+)/, 'Edge'],
    [/OPR\/(\d+)/, 'Opera'],
    [/Firefox\/(\d+)/, 'Firefox'],
    [/Chrom(?:e|ium)\/(\d+)/, 'Chrome'],
    [/Version\/([\d.]+).*Safari\//, 'Safari'],
    [/Node\.js\/(\d+)/, 'Node.js'],
  ];
  for (const [re, name] of known) {
    const m = re.exec(userAgent);
    if (m) return `${name} ${m[1]}`;
  }
  return userAgent.length > 40 ? `${userAgent.slice(0, 40)}…` : userAgent || 'an unnamed browser';
}

/** Where and when: "recorded in Chrome 131 with 2 cores, 2025-01-14 10:32 UTC". */
export function originLabel(rec: Pick<Recording, 'origin' | 'recordedAt'>): string {
  const when = `${rec.recordedAt.slice(0, 10)} ${rec.recordedAt.slice(11, 16)} UTC`;
  const cores = `${rec.origin.cores} core${rec.origin.cores === 1 ? '' : 's'}`;
  return `recorded in ${browserName(rec.origin.userAgent)} with ${cores}, ${when}`;
}

/** Time order, ties by worker, else as given: the order readTap hands a replay's frames to the
 * page (rings are read worker by worker, then sorted stably by time), so a replay played through
 * its rings and one rebuilt from this list see the same sequence. */
export function canonicalOrder<E extends { timeUs: number; worker: number }>(events: E[]): E[] {
  return events
    .map((e, i) => ({ e, i }))
    .sort((a, b) => a.e.timeUs - b.e.timeUs || a.e.worker - b.e.worker || a.i - b.i)
    .map(({ e }) => e);
}

/** How many of `list` (in time order) happen at or before `timeUs`: the index of the first later. */
export function countUpTo(list: ReadonlyArray<{ timeUs: number }>, timeUs: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid].timeUs <= timeUs) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The last sample at or before `timeUs`, or null before the first. */
export function sampleAt<S extends { timeUs: number }>(
  samples: readonly S[],
  timeUs: number,
): S | null {
  return samples[countUpTo(samples, timeUs) - 1] ?? null;
}

/** Task and stream records in a board. */
export const boardRecords = (b: BoardFrame) => b.tasks.length + b.streams.length;
