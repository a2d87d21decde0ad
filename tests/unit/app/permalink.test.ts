// Share links: every control written out (defaults too), the page's own parameters that are set
// carried over (engine choice, a presenter's step), unknown parameters left behind, on this
// site's address — and reading the link back gives the same controls.
import { expect, test } from 'vitest';
import { readControlValues } from '../../../src/app/lesson/lessonControls';
import { permalink, shareQuery } from '../../../src/app/permalink';
import { parseRoute } from '../../../src/app/route';
import { parseLesson } from '../../../src/lessons/loadLessons';

const lesson = parseLesson(
  'lessons/01-bubbles.md',
  `---
title: Bubbles
summary: Where pipelines wait.
experiment:
  runtime: static
  stages:
    - { name: input, mode: serial-in-order, threads: 1, service: { kind: fixed, us: 10 } }
    - { name: work, mode: parallel, threads: 2, service: { kind: exponential, meanUs: 40 } }
  items: 1000
  seed: 7
controls:
  - { id: threads, label: Workers, targets: ["stages[1].threads"], min: 1, max: 8 }
  - { id: workUs, label: Work, targets: ["stages[1].service.meanUs"], min: 10, max: 100, step: 10 }
---
::experiment
`,
);
const site = { origin: 'https://example.org', pathname: '/pipelab/', search: '?isolation=off' };

test('a share link holds every control, the set page parameters, and nothing unknown', () => {
  const current = new URLSearchParams('threads=4&engine=simulation&step=3&bogus=1');
  const query = shareQuery(current, { threads: 4, workUs: 40 }, ['engine', 'step', 'embed']);
  expect(query).toEqual({ threads: 4, workUs: 40, engine: 'simulation', step: '3' });
  expect(permalink(site, '/present/bubbles', query)).toBe(
    'https://example.org/pipelab/?isolation=off#/present/bubbles?threads=4&workUs=40&engine=simulation&step=3',
  );
});

test('opening the link reads back the same control values, with no unknown parameter', () => {
  const values = { threads: 6, workUs: 70 };
  const url = permalink(
    site,
    '/lessons/bubbles',
    shareQuery(new URLSearchParams(), values, ['engine']),
  );
  const route = parseRoute(new URL(url).hash);
  expect(route.path).toBe('/lessons/bubbles');
  expect(readControlValues(lesson.controls, route.query)).toEqual({ values, errors: [] });
});

test('a control value wins over a page parameter of the same name', () => {
  expect(shareQuery(new URLSearchParams('threads=9'), { threads: 2 }, ['threads'])).toEqual({
    threads: 2,
  });
});
