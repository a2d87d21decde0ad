// A recording as a file (FORMAT.md): written as versioned JSON, and read back with every field
// checked — a file that is not a recording, one from another version, a truncated or hand-edited
// one each gets a message naming the problem (and the field, with its path), never a broken page.
import { EVENT_KINDS, STAGE_COUNTER_FIELDS, type StageCounters } from '../telemetry';
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
  canonicalOrder,
  MAX_EVENTS,
  MAX_SAMPLES,
  RECORDING_FORMAT,
  RECORDING_VERSION,
  RUN_ENDS,
  type CounterSample,
  type Recording,
} from './recording';

/** A file holding more events than this is refused before anything is built from it. */
export const READ_MAX_EVENTS = 4 * MAX_EVENTS;
/** …or more counter samples than this. */
export const READ_MAX_SAMPLES = 4 * MAX_SAMPLES;
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
];
const ENGINES = ['threads', 'simulation'] as const;
const U32_MAX = 0xffffffff;
/** An event row's fields, in order. */
const EVENT_FIELDS = ['timeUs', 'worker', 'stage', 'kind', 'item', 'arg'];

/** The file's text: the recording with its events and samples as rows (FORMAT.md). */
export function recordingToJson(rec: Recording): string {
  const { events, samples, ...head } = rec;
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
  return `${top.slice(0, -2)},\n "events": [\n${rows.join(',\n')}\n ],\n "samples": [\n${sampleRows.join(',\n')}\n ]\n}\n`;
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

function readEvents(
  value: unknown,
  limits: { maxEvents: number; workers: number; stages: number; durationUs: number },
): TelemetryEvent[] {
  const rows = readArray(value, 'events', limits.maxEvents, 'cap.maxEvents');
  let previousUs = 0;
  const events = rows.map((row, i): TelemetryEvent => {
    const path = join('events', i);
    const r = readRow(row, path, EVENT_FIELDS);
    const timeUs = readNumber(r[0], join(path, 0), 0, limits.durationUs);
    checkTimeOrder(timeUs, previousUs, join(path, 0));
    previousUs = timeUs;
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
  });
  return canonicalOrder(events);
}

function readSamples(value: unknown, stages: number, durationUs: number): CounterSample[] {
  const rows = readArray(value, 'samples', READ_MAX_SAMPLES, 'this build');
  const names = ['timeUs', 'dropped', ...Array.from({ length: stages }, (_, s) => `stage ${s}`)];
  let previousUs = 0;
  return rows.map((row, i) => {
    const path = join('samples', i);
    const r = readRow(row, path, names);
    const timeUs = readNumber(r[0], join(path, 0), 0, durationUs);
    checkTimeOrder(timeUs, previousUs, join(path, 0));
    previousUs = timeUs;
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
