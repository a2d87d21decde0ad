// A recording replays only where its views would match it: on its own lesson, at valid control
// values, while the lesson still gives the recorded spec there; each refusal names the reason and
// links to where it can be replayed.
import { describe, expect, test } from 'vitest';
import { firstDifference, recordingFits } from '../../../src/app/lesson/replay/recordingFits';
import { applyControls } from '../../../src/lessons/controls';
import { parseLesson } from '../../../src/lessons/loadLessons';
import type { Recording } from '../../../src/replay/recording';
import { recordTwin } from '../replay/twinRecording';

const lessonText = (meanUs: number) => `---
title: Bubbles
summary: Where pipelines wait.
experiment:
  runtime: static
  stages:
    - { name: input, mode: serial-in-order, threads: 1, service: { kind: fixed, us: 200 } }
    - { name: work, mode: parallel, threads: 2, service: { kind: exponential, meanUs: ${meanUs} } }
  items: 100
  seed: 7
controls:
  - { id: threads, label: Workers, targets: ["stages[1].threads"], min: 1, max: 8 }
---
::experiment
`;
const lesson = parseLesson('lessons/01-bubbles.md', lessonText(900));
const spec = applyControls(lesson.experimentSource, lesson.controls, { threads: 3 });
const base = recordTwin(spec);
const rec = (change: Partial<Recording>): Recording => ({
  ...base,
  lesson: { slug: 'bubbles', values: { threads: 3 } },
  ...change,
});

test('its own lesson at its values: replays, with the controls set to them', () => {
  expect(recordingFits(rec({}), lesson)).toEqual({ values: { threads: 3 } });
});

describe('refused, saying why and where it would replay', () => {
  test('another lesson', () => {
    const r = recordingFits(rec({ lesson: { slug: 'work-stealing', values: {} } }), lesson);
    expect(r).toEqual({
      refusal: {
        message:
          'This recording is of the page "work-stealing", not this one ("bubbles"): replay it there.',
        link: { href: '#/lessons/work-stealing', text: 'Open work-stealing' },
      },
    });
  });

  test('a control value out of range', () => {
    const r = recordingFits(rec({ lesson: { slug: 'bubbles', values: { threads: 99 } } }), lesson);
    expect('refusal' in r && r.refusal.message).toBe(
      "This recording's control values do not fit this lesson: threads=99 is out of range (allowed 1..8).",
    );
  });

  test('a lesson whose experiment changed since', () => {
    const changed = parseLesson('lessons/01-bubbles.md', lessonText(800));
    const r = recordingFits(rec({}), changed);
    expect('refusal' in r && r.refusal.message).toBe(
      "This lesson's experiment has changed since the recording (the spec differs at stages[1].service.meanUs), so its views would not match the recorded run.",
    );
    expect('refusal' in r && r.refusal.link?.href).toMatch(/^#\/experiment\?spec=/);
  });
});

test('firstDifference names the first differing path, or null', () => {
  expect(firstDifference({ a: [1, { b: 2 }] }, { a: [1, { b: 3 }] })).toBe('a[1].b');
  expect(firstDifference({ a: 1 }, { a: 1, c: 2 })).toBe('c');
  expect(firstDifference({ a: [1] }, { a: [1] })).toBeNull();
});
