// The recording file: a round trip keeps the run (times at ns resolution), and every bad input —
// not JSON, not a recording, another version, cut short, a hand-edited field anywhere — is
// refused with a message that names the problem and the field.
import { describe, expect, test } from 'vitest';
import {
  checkFileSize,
  parseRecording,
  READ_MAX_BYTES,
  recordingToJson,
  RecordingError,
} from '../../../src/replay/recordingFile';
import { recordTwin, twinSpec } from './twinRecording';

const rec = recordTwin(twinSpec('work-stealing'));
const text = recordingToJson(rec);
const ns = (us: number) => Math.round(us * 1000) / 1000;

test('a saved recording reads back as the same run', () => {
  const back = parseRecording(text);
  const { events, samples, durationUs, ...head } = back;
  const { events: e0, samples: s0, durationUs: d0, ...head0 } = rec;
  expect(head).toEqual(head0);
  expect(durationUs).toBeGreaterThanOrEqual(d0);
  expect(durationUs - d0).toBeLessThan(0.001);
  expect(events.map((e) => ({ ...e, seq: 0 }))).toEqual(
    e0.map((e) => ({ ...e, timeUs: ns(e.timeUs), seq: 0 })),
  );
  expect(samples).toEqual(s0.map((s) => ({ ...s, timeUs: ns(s.timeUs) })));
  // Saved again, it is the same file.
  expect(recordingToJson(back)).toBe(text);
});

test('the file starts with its format and version, one event a line', () => {
  const json = JSON.parse(text);
  expect(json.format).toBe('pipelab-recording');
  expect(json.version).toBe(1);
  expect(text.split('\n').length).toBeGreaterThan(rec.events.length);
});

/** The file as parsed JSON, for hand edits (any shape: that is what a hand edit can make). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/** The file with one change made to its parsed JSON. */
function edited(change: (json: Json) => void): string {
  const json = JSON.parse(text);
  change(json);
  return JSON.stringify(json);
}

describe('bad input is named', () => {
  test.each([
    ['not JSON', 'hello', 'This file is not a PipeLab recording: it is not JSON'],
    [
      'JSON but not an object',
      '[1, 2]',
      'This file is not a PipeLab recording: it is not a JSON object.',
    ],
    [
      'another format',
      '{"format": "perfetto", "version": 1}',
      'This file is not a PipeLab recording: its format is "perfetto" (a recording says "pipelab-recording").',
    ],
    [
      'no format',
      '{"traceEvents": []}',
      'This file is not a PipeLab recording: its format is missing (a recording says "pipelab-recording").',
    ],
    [
      'a later version',
      edited((j) => (j.version = 2)),
      'This recording is version 2; this build of PipeLab reads version 1.',
    ],
    [
      'no version',
      edited((j) => delete j.version),
      'This recording is version (missing); this build of PipeLab reads version 1.',
    ],
    [
      'cut short',
      text.slice(0, Math.floor(text.length / 2)),
      'This PipeLab recording is cut short or damaged: it is not valid JSON',
    ],
  ])('%s', (_, input, message) => {
    expect(() => parseRecording(input)).toThrow(RecordingError);
    expect(() => parseRecording(input)).toThrow(message);
  });

  const damaged = 'This recording is damaged or was edited by hand: ';
  test.each<[string, (j: Json) => void, string]>([
    ['an unknown field', (j) => (j.extra = 1), 'extra: unknown field'],
    ['a missing field', (j) => delete j.spec, 'spec: missing (required)'],
    [
      'a bad date',
      (j) => (j.recordedAt = 'yesterday'),
      'recordedAt: "yesterday" is not an ISO 8601 date',
    ],
    ['a bad engine', (j) => (j.engine = 'gpu'), 'engine: "gpu" is not one of threads | simulation'],
    ['bad cores', (j) => (j.origin.cores = 0), 'origin.cores: 0 is out of range (allowed 1..4096)'],
    [
      'a bad spec field',
      (j) => (j.spec.stages[1].threads = 0),
      'spec.stages[1].threads: 0 is out of range (allowed 1..64)',
    ],
    [
      'workers unlike the spec',
      (j) => (j.workers = 5),
      "workers: 5 differs from the spec's threads (3)",
    ],
    [
      'completed above items',
      (j) => (j.summary.completed = 301),
      'summary.completed: 301 is out of range (allowed 0..300)',
    ],
    [
      'a bad run end',
      (j) => (j.endedAs = 'crashed'),
      'endedAs: "crashed" is not one of done | stopped | error',
    ],
    ['a cut after the end', (j) => (j.cap.reachedAtUs = j.durationUs + 5), 'cap.reachedAtUs:'],
    [
      'more events than the cap',
      (j) => (j.cap.maxEvents = 10),
      'rows is more than cap.maxEvents allows (10)',
    ],
    [
      'an event with a worker out of range',
      (j) => (j.events[12][1] = 9),
      'events[12][1]: 9 is out of range (allowed 0..2)',
    ],
    [
      'an event of an unknown kind',
      (j) => (j.events[3][3] = 'explode'),
      'events[3][3]: "explode" is not one of start',
    ],
    [
      'an event on no stage there is',
      (j) => (j.events[3][2] = 7),
      'events[3][2]: 7 is out of range (allowed 0..2, or 255 for none)',
    ],
    [
      'an event short of fields',
      (j) => j.events[4].pop(),
      'events[4]: 5 fields (allowed 6: timeUs, worker, stage, kind, item, arg)',
    ],
    [
      'an event out of time order',
      (j) => (j.events[20][0] = j.events[19][0] - 1),
      'events[20][0]:',
    ],
    [
      'an event past the end',
      (j) => (j.events.at(-1)[0] = j.durationUs + 1),
      'is out of range (allowed 0..',
    ],
    [
      'a negative counter',
      (j) => (j.samples[2][3][1] = -4),
      'samples[2][3][1]: -4 is out of range',
    ],
    [
      'a sample missing a stage',
      (j) => j.samples[2].pop(),
      'samples[2]: 4 fields (allowed 5: timeUs, dropped, stage 0, stage 1, stage 2)',
    ],
    [
      'a lesson value of the wrong type',
      (j) => (j.lesson.values.threads = [2]),
      'lesson.values.threads: [2] is not a number or a string',
    ],
  ])('%s', (_, change, message) => {
    const input = edited(change);
    expect(() => parseRecording(input)).toThrow(damaged);
    expect(() => parseRecording(input)).toThrow(message);
  });
});

test('a file larger than a recording can be is refused before it is read', () => {
  expect(() => checkFileSize(READ_MAX_BYTES + 1)).toThrow(
    'This file is 64.0 MB; a PipeLab recording is at most 64 MB.',
  );
  expect(() => checkFileSize(READ_MAX_BYTES)).not.toThrow();
});
