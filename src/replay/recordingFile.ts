// A recording as a file (FORMAT.md): written as versioned JSON, and read back with every field
// checked — a file that is not a recording, one from another version, a truncated or hand-edited
// one each gets a message naming the problem (and the field, with its path), never a broken page.
import {
  EVENT_KINDS,
  STAGE_COUNTER_FIELDS,
  TASK_STATES,
  type BoardStream,
  type BoardTask,
  type StageCounters,
} from '../telemetry';
import type { TelemetryEvent } from '../telemetry';
import { parseExperimentSpec } from '../spec/experimentSpec';
import {
  SpecError,
  join,
  readEnum,
  readInteger,
  readNumber,
  readObject,
  readString,
  requireField,
  type JsonObject,
} from '../spec/specFields';
import {
  boardRecords,
  canonicalOrder,
  MAX_BOARD_RECORDS,
  MAX_EVENTS,
  MAX_SAMPLES,
  RECORDING_FORMAT,
  RECORDING_VERSION,
  RUN_ENDS,
  type BoardSample,
  type CounterSample,
  type Recording,
} from './recording';

/** A file holding more events than this is refused before anything is built from it. */
export const READ_MAX_EVENTS = 4 * MAX_EVENTS;
/** …or more counter samples than this. */
export const READ_MAX_SAMPLES = 4 * MAX_SAMPLES;
/** …or more board records (tasks and streams over all board rows) than this. */
export const READ_MAX_BOARD_RECORDS = 4 * MAX_BOARD_RECORDS;
/** …and a file larger than this is refused before it is read. */
export const READ_MAX_BYTES = 64 * 1024 * 1024;

/** Why a file cannot be replayed, in words for the page. */
export class RecordingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RecordingError';
  }
}

const TOP_FIELDS = [
  'format',
  'version',
  'recordedAt',
  'origin',
  'engine',
  'lesson',
  'spec',
  'workers',
  'summary',
  'endedAs',
  'durationUs',
  'cap',
  'events',
  'samples',
  'boards',
];
const ENGINES = ['threads', 'simulation'] as const;
const U32_MAX = 0xffffffff;
/** An event row's fields, in order. */
const EVENT_FIELDS = ['timeUs', 'worker', 'stage', 'kind', 'item', 'arg'];
/** A board row's fields, and its task and stream rows' (FORMAT.md). */
const BOARD_FIELDS = ['timeUs', 'stalled', 'cyclicStreams', 'tasks', 'streams'];
const TASK_FIELDS = ['stage', 'state', 'thread', 'parent', 'label', 'phase', 'input', 'output'];
const STREAM_FIELDS = [
  'specIndex',
  'fromTask',
  'toTask',
  'signalled',
  'waited',
  'batched',
  'cyclic',
  'batch',
];
const boardRow = ({ timeUs, board: b }: BoardSample) =>
  JSON.stringify([
    round(timeUs),
    b.stalled ? 1 : 0,
    b.cyclicStreams,
    b.tasks.map((t) => TASK_FIELDS.map((f) => t[f as keyof BoardTask])),
    b.streams.map((x) => [
      x.specIndex,
      x.fromTask,
      x.toTask,
      x.signalled,
      x.waited,
      x.batched ? 1 : 0,
      x.cyclic ? 1 : 0,
      x.batch,
    ]),
  ]);

/** The file's text: the recording with its events and samples as rows (FORMAT.md). */
export function recordingToJson(rec: Recording): string {
  const { events, samples, boards, ...head } = rec;
  const rows = events.map((e) =>
    JSON.stringify([round(e.timeUs), e.worker, e.stage, e.kind, e.item, e.arg]),
  );
  const sampleRows = samples.map((s) =>
    JSON.stringify([
      round(s.timeUs),
      s.dropped,
      ...s.counters.map((c) => STAGE_COUNTER_FIELDS.map((f) => c[f])),
    ]),
  );
  // Rounded up so that no rounded row lies past the end.
  const durationUs = Math.ceil(head.durationUs * 1000) / 1000;
  const top = JSON.stringify(
    { format: RECORDING_FORMAT, version: RECORDING_VERSION, ...head, durationUs },
    null,
    1,
  );
  // One event or sample a line: the file stays readable and diffable.
  // Boards only for a run that has them (a phaser run): other recordings stay as they were.
  const boardPart = boards.length ? `,\n "boards": [\n${boards.map(boardRow).join(',\n')}\n ]` : '';
  return `${top.slice(0, -2)},\n "events": [\n${rows.join(',\n')}\n ],\n "samples": [\n${sampleRows.join(',\n')}\n ]${boardPart}\n}\n`;
}

/** Nanosecond resolution is all a µs clock in a browser has (and it keeps the file small). */
const round = (us: number) => Math.round(us * 1000) / 1000;

/** A file too large to read: the size and the limit, in MB. */
export function checkFileSize(bytes: number): void {
  if (bytes > READ_MAX_BYTES)
    throw new RecordingError(
      `This file is ${(bytes / 2 ** 20).toFixed(1)} MB; a PipeLab recording is at most ${READ_MAX_BYTES / 2 ** 20} MB.`,
    );
}

export function parseRecording(text: string): Recording {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    const looksLikeOne = text.trimStart().startsWith('{') && text.includes(`"${RECORDING_FORMAT}"`);
    throw new RecordingError(
      looksLikeOne
        ? `This PipeLab recording is cut short or damaged: it is not valid JSON (${(e as Error).message}).`
        : `This file is not a PipeLab recording: it is not JSON (${(e as Error).message}).`,
    );
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new RecordingError('This file is not a PipeLab recording: it is not a JSON object.');
  const obj = json as JsonObject;
  if (obj.format !== RECORDING_FORMAT)
    throw new RecordingError(
      `This file is not a PipeLab recording: its format is ${JSON.stringify(obj.format) ?? 'missing'} (a recording says "${RECORDING_FORMAT}").`,
    );
  if (obj.version !== RECORDING_VERSION)
    throw new RecordingError(
      `This recording is version ${JSON.stringify(obj.version) ?? '(missing)'}; this build of PipeLab reads version ${RECORDING_VERSION}.`,
    );
  try {
    return readRecording(obj);
  } catch (e) {
    if (e instanceof SpecError)
      throw new RecordingError(`This recording is damaged or was edited by hand: ${e.message}.`);
    throw e;
  }
}

function readRecording(raw: JsonObject): Recording {
  const obj = readObject(raw, '', TOP_FIELDS);
  const field = (key: string) => requireField(obj, key, '');
  const recordedAt = readString(field('recordedAt'), 'recordedAt', 1, 40);
  if (Number.isNaN(Date.parse(recordedAt)))
    throw new SpecError('recordedAt', `${JSON.stringify(recordedAt)} is not an ISO 8601 date`);
  const origin = readObject(field('origin'), 'origin', ['userAgent', 'cores']);
  const engine = readEnum(field('engine'), 'engine', ENGINES);
  const spec = readSpec(field('spec'));
  const workers = readInteger(field('workers'), 'workers', 1, 256);
  if (workers !== spec.threads)
    throw new SpecError('workers', `${workers} differs from the spec's threads (${spec.threads})`);
  const durationUs = readNumber(field('durationUs'), 'durationUs', 0, Number.MAX_SAFE_INTEGER);
  const cap = readObject(field('cap'), 'cap', ['maxEvents', 'reachedAtUs']);
  const maxEvents = readInteger(
    requireField(cap, 'maxEvents', 'cap'),
    'cap.maxEvents',
    1,
    READ_MAX_EVENTS,
  );
  const reachedAtUs =
    cap.reachedAtUs === null
      ? null
      : readNumber(requireField(cap, 'reachedAtUs', 'cap'), 'cap.reachedAtUs', 0, durationUs);
  const stages = spec.stages.length;
  return {
    recordedAt,
    origin: {
      userAgent: readString(
        requireField(origin, 'userAgent', 'origin'),
        'origin.userAgent',
        0,
        1024,
      ),
      cores: readInteger(requireField(origin, 'cores', 'origin'), 'origin.cores', 1, 4096),
    },
    engine,
    lesson: readLesson(obj.lesson),
    spec,
    workers,
    summary: readSummary(field('summary')),
    endedAs: readEnum(field('endedAs'), 'endedAs', RUN_ENDS),
    durationUs,
    cap: { maxEvents, reachedAtUs },
    events: readEvents(field('events'), { maxEvents, workers, stages, durationUs }),
    samples: readSamples(field('samples'), stages, durationUs),
    boards: obj.boards === undefined ? [] : readBoards(obj.boards, durationUs),
  };
}

function readSpec(value: unknown) {
  try {
    return parseExperimentSpec(value);
  } catch (e) {
    if (e instanceof SpecError)
      throw new SpecError(join('spec', e.path), e.message.replace(`${e.path}: `, ''));
    throw e;
  }
}

function readLesson(value: unknown): Recording['lesson'] {
  if (value === null || value === undefined) return null;
  const lesson = readObject(value, 'lesson', ['slug', 'values']);
  const slug = readString(requireField(lesson, 'slug', 'lesson'), 'lesson.slug', 1, 80);
  if (!/^[a-z0-9-]+$/.test(slug))
    throw new SpecError(
      'lesson.slug',
      `${JSON.stringify(slug)} is not a lesson slug (a-z, 0-9, -)`,
    );
  const values = requireField(lesson, 'values', 'lesson');
  if (typeof values !== 'object' || values === null || Array.isArray(values))
    throw new SpecError('lesson.values', `${JSON.stringify(values)} is not an object`);
  for (const [k, v] of Object.entries(values))
    if (typeof v !== 'string' && (typeof v !== 'number' || !Number.isFinite(v)))
      throw new SpecError(
        join('lesson.values', k),
        `${JSON.stringify(v)} is not a number or a string`,
      );
  return { slug, values: values as Record<string, number | string> };
}

function readSummary(value: unknown): Recording['summary'] {
  const s = readObject(value, 'summary', ['items', 'completed', 'elapsedUs', 'itemsPerSec']);
  const items = readInteger(requireField(s, 'items', 'summary'), 'summary.items', 0, 100_000_000);
  return {
    items,
    completed: readInteger(requireField(s, 'completed', 'summary'), 'summary.completed', 0, items),
    elapsedUs: readNumber(
      requireField(s, 'elapsedUs', 'summary'),
      'summary.elapsedUs',
      0,
      Number.MAX_SAFE_INTEGER,
    ),
    itemsPerSec: readNumber(
      requireField(s, 'itemsPerSec', 'summary'),
      'summary.itemsPerSec',
      0,
      Number.MAX_SAFE_INTEGER,
    ),
  };
}

/** A JSON array at `path` of at most `max` entries (`limit` names where the maximum comes from). */
function readArray(value: unknown, path: string, max: number, limit: string): unknown[] {
  if (!Array.isArray(value))
    throw new SpecError(path, `${JSON.stringify(value)?.slice(0, 40)} is not an array`);
  if (value.length > max)
    throw new SpecError(path, `${value.length} rows is more than ${limit} allows (${max})`);
  return value;
}

/** A row of exactly `names.length` fields. */
function readRow(value: unknown, path: string, names: readonly string[]): unknown[] {
  if (!Array.isArray(value))
    throw new SpecError(path, `${JSON.stringify(value)?.slice(0, 40)} is not an array`);
  if (value.length !== names.length)
    throw new SpecError(
      path,
      `${value.length} fields (allowed ${names.length}: ${names.join(', ')})`,
    );
  return value;
}

/** Rows in time order: a row earlier than the one before is named. */
function checkTimeOrder(timeUs: number, previousUs: number, path: string): void {
  if (timeUs < previousUs)
    throw new SpecError(
      path,
      `${timeUs} µs is before the previous row's ${previousUs} µs (rows are in time order)`,
    );
}

/** The rows of `name` (already bounded by its reader), each of `fields` with field 0 a time in
 * 0..durationUs never before the row above; `read` makes each row's value from its fields. */
function readTimedRows<T>(
  rows: unknown[],
  name: string,
  fields: readonly string[],
  durationUs: number,
  read: (r: unknown[], path: string, timeUs: number, index: number) => T,
): T[] {
  let previousUs = 0;
  return rows.map((row, i) => {
    const path = join(name, i);
    const r = readRow(row, path, fields);
    const timeUs = readNumber(r[0], join(path, 0), 0, durationUs);
    checkTimeOrder(timeUs, previousUs, join(path, 0));
    previousUs = timeUs;
    return read(r, path, timeUs, i);
  });
}

function readEvents(
  value: unknown,
  limits: { maxEvents: number; workers: number; stages: number; durationUs: number },
): TelemetryEvent[] {
  const rows = readArray(value, 'events', limits.maxEvents, 'cap.maxEvents');
  const events = readTimedRows(
    rows,
    'events',
    EVENT_FIELDS,
    limits.durationUs,
    (r, path, timeUs, i): TelemetryEvent => {
      const stage = readInteger(r[2], join(path, 2), 0, 255);
      if (stage >= limits.stages && stage !== 255)
        throw new SpecError(
          join(path, 2),
          `${stage} is out of range (allowed 0..${limits.stages - 1}, or 255 for none)`,
        );
      return {
        timeUs,
        worker: readInteger(r[1], join(path, 1), 0, limits.workers - 1),
        stage,
        kind: readEnum(r[3], join(path, 3), EVENT_KINDS),
        item: readInteger(r[4], join(path, 4), 0, U32_MAX),
        arg: readInteger(r[5], join(path, 5), 0, U32_MAX),
        seq: i,
      };
    },
  );
  return canonicalOrder(events);
}

function readSamples(value: unknown, stages: number, durationUs: number): CounterSample[] {
  const rows = readArray(value, 'samples', READ_MAX_SAMPLES, 'this build');
  const names = ['timeUs', 'dropped', ...Array.from({ length: stages }, (_, s) => `stage ${s}`)];
  return readTimedRows(rows, 'samples', names, durationUs, (r, path, timeUs): CounterSample => {
    const counters = r.slice(2).map((line, s): StageCounters => {
      const at = join(path, s + 2);
      const values = readRow(line, at, STAGE_COUNTER_FIELDS);
      return Object.fromEntries(
        STAGE_COUNTER_FIELDS.map((f, k) => [
          f,
          readInteger(values[k], join(at, k), 0, Number.MAX_SAFE_INTEGER),
        ]),
      ) as StageCounters;
    });
    return {
      timeUs,
      dropped: readInteger(r[1], join(path, 1), 0, Number.MAX_SAFE_INTEGER),
      counters,
    };
  });
}

/** A task or stream id in a board row: null (none) or an index below 2^32 - 1. */
function readId(value: unknown, path: string): number | null {
  return value === null ? null : readInteger(value, path, 0, U32_MAX - 1);
}

function readBoards(value: unknown, durationUs: number): BoardSample[] {
  const rows = readArray(value, 'boards', READ_MAX_SAMPLES, 'this build');
  let records = 0;
  return readTimedRows(rows, 'boards', BOARD_FIELDS, durationUs, (r, path, timeUs): BoardSample => {
    const tasks = readArray(r[3], join(path, 3), READ_MAX_BOARD_RECORDS, 'this build').map(
      (t, k): BoardTask => {
        const at = join(join(path, 3), k);
        const f = readRow(t, at, TASK_FIELDS);
        const n = (j: number) => readInteger(f[j], join(at, j), 0, U32_MAX);
        return {
          id: k,
          stage: n(0),
          state: readEnum(f[1], join(at, 1), TASK_STATES),
          thread: readId(f[2], join(at, 2)),
          parent: readId(f[3], join(at, 3)),
          label: n(4),
          phase: n(5),
          input: readId(f[6], join(at, 6)),
          output: readId(f[7], join(at, 7)),
        };
      },
    );
    const streams = readArray(r[4], join(path, 4), READ_MAX_BOARD_RECORDS, 'this build').map(
      (x, k): BoardStream => {
        const at = join(join(path, 4), k);
        const f = readRow(x, at, STREAM_FIELDS);
        const n = (j: number, max = U32_MAX) => readInteger(f[j], join(at, j), 0, max);
        return {
          id: k,
          specIndex: readId(f[0], join(at, 0)),
          fromTask: readId(f[1], join(at, 1)),
          toTask: readId(f[2], join(at, 2)),
          signalled: n(3),
          waited: n(4),
          batched: n(5, 1) === 1,
          cyclic: n(6, 1) === 1,
          batch: n(7),
        };
      },
    );
    const board = {
      tasks,
      streams,
      stalled: readInteger(r[1], join(path, 1), 0, 1) === 1,
      cyclicStreams: readInteger(r[2], join(path, 2), 0, U32_MAX),
    };
    records += boardRecords(board);
    if (records > READ_MAX_BOARD_RECORDS)
      throw new SpecError(
        path,
        `the boards hold more than ${READ_MAX_BOARD_RECORDS} task and stream records (this build's limit)`,
      );
    return { timeUs, board };
  });
}
