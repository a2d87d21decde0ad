// Lesson 3's prose says where its chart draws the exact bounded-queue chain: "the 6-stage layout
// has that few [states] only with queues of 1 item and at most 5 parallel threads", and with
// queues of 2 the collapsed layout has it. This holds the words to the model (a panel at queue 1
// showed the exact chain for the 6-stage layout while the prose said it never has one).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test } from 'vitest';
import { applyControls } from '../../../src/lessons/controls';
import { parseLesson } from '../../../src/lessons/loadLessons';
import { modelItemsPerSec } from '../../../src/runtimes';
import { parseExperimentSpec } from '../../../src/spec/experimentSpec';

const file = '03-balancing-a-static-pipeline.md';
const text = readFileSync(resolve(__dirname, '../../../lessons', file), 'utf8');
const lesson = parseLesson(file, text);
const defaults = Object.fromEntries(lesson.controls.map((c) => [c.id, c.defaultValue]));
const hasExact = (layout: string, queue: number, npTh: number) =>
  modelItemsPerSec(
    'exact',
    parseExperimentSpec(
      applyControls(lesson.experimentSource, lesson.controls, { ...defaults, layout, queue, npTh }),
    ),
  ) !== null;

test('the prose says what this test checks', () => {
  expect(text.replace(/\s+/g, ' ')).toContain(
    'the 6-stage layout has that few only with queues of 1 item and at most 5 parallel threads',
  );
});

test.each([1, 2, 3, 4, 8, 20])('the 6-stage layout at queue %i', (queue) => {
  for (const npTh of [4, 5, 6, 8, 16, 32, 64])
    expect(hasExact('6', queue, npTh), `npTh ${npTh}`).toBe(queue === 1 && npTh <= 5);
});

test('with queues of 2 the collapsed layout has the exact chain', () => {
  expect(hasExact('3', 2, 4)).toBe(true);
});
