// @vitest-environment happy-dom
// Every page names a bad URL value on the page (role=alert), with the allowed range or values,
// and comes up on its fallback: the lessons' controls, the counting page's, the presenter's step,
// unknown parameters of any page, and an ad-hoc experiment's bad spec. The whole app in a DOM
// (page.tsx); these tables ran in Chromium before, each row a page load and a run on real threads
// (the runs themselves are the lessons' e2e smoke runs).
import { afterEach, describe, expect, test } from 'vitest';
import { AD_HOC_SPEC_PARAM } from '../../e2e/harness';
import { lessonFile } from '../../e2e/lessonHelpers';
import { openPage, type ShownPage } from './page';

let page: ShownPage | null = null;
afterEach(async () => {
  await page?.close();
  page = null;
});

describe.each([
  ['#/?zzbogus=1', 'zzbogus is not a parameter of this page (known: none)'],
  ['#/papers?zzbogus=1', 'zzbogus is not a parameter of this page (known: none)'],
  [
    '#/threads?zzbogus=1',
    'zzbogus is not a parameter of this page (known: threads, layout, workNs)',
  ],
  [
    `#/experiment?spec=${AD_HOC_SPEC_PARAM}&zzbogus=1`,
    'zzbogus is not a parameter of this page (known: spec, engine)',
  ],
  // A spec that is not an object: named as the spec's problem, on a page with a way home.
  ['#/experiment?spec=%5B%5D', 'spec: an array is not an object'],
  ['#/lessons/thread-packing?embed=2', 'embed=2 is not one of 1'],
])('%s', (hash, message) => {
  test('names the unknown parameter or the bad value', async () => {
    page = await openPage(hash);
    expect(page.alerts().join('\n')).toContain(message);
    if (hash.startsWith('#/experiment'))
      expect(page.root.querySelector('main .crumbs a')?.getAttribute('href')).toBe('#/');
  });
});

// A lesson's bad control value: named with the range or the choices, and the control shows the
// lesson's default, the experiment idle on it.
describe.each([
  ['work-stealing-and-tokens', 'threads=-3', 'threads=-3 is out of range (allowed 1..64)'],
  ['work-stealing-and-tokens', 'tokens=abc', 'tokens=abc is not a whole number (allowed 1..32)'],
  ['work-stealing-and-tokens', 'threads=100000', 'threads=100000 is out of range (allowed 1..64)'],
  ['work-stealing-and-tokens', 'stages=9', 'stages=9 is not one of 4, 7'],
  ['pipelines-and-bubbles', 'queue=0', 'queue=0 is out of range (allowed 1..64)'],
  ['pipelines-and-bubbles', 'bogus=1', 'bogus is not a control of this lesson'],
  [
    'pipelines-and-bubbles',
    'extractUs=1500',
    'extractUs=1500 is between steps (allowed 1000..50000 in steps of 1000); using',
  ],
  ['pipelines-and-bubbles', 'engine=threads', 'engine=threads is not one of simulation'],
  ['balancing-a-static-pipeline', 'npTh=3', 'npTh=3 is out of range (allowed 4..64); using 4'],
  [
    'balancing-a-static-pipeline',
    'queue=0',
    'queue=0 is out of range (allowed 1..64 or unbounded); using 20',
  ],
  [
    'balancing-a-static-pipeline',
    'queue=lots',
    'queue=lots is not a whole number (allowed 1..64 or unbounded); using 20',
  ],
  [
    'balancing-a-static-pipeline',
    'layout=9',
    'layout=9 is not one of 6, 3, dedup5, dedup3; using 6',
  ],
  ['ends-of-the-pipeline', 'buffers=1', 'buffers=1 is not one of n+2, 2, 3, 16'],
  ['ends-of-the-pipeline', 'batch=0', 'batch=0 is out of range (allowed 1..4096)'],
  ['ends-of-the-pipeline', 'batch=5000', 'batch=5000 is out of range (allowed 1..4096)'],
  ['ends-of-the-pipeline', 'formatters=17', 'formatters=17 is out of range (allowed 1..16)'],
  ['queues-and-cache-lines', 'semi=3', 'semi=3 is not one of 1, 2, 4, 8, 16, 32, 64'],
  ['queues-and-cache-lines', 'race=fast', 'race=fast is not one of comm, matrix'],
  [
    'queues-and-cache-lines',
    'serviceUs=-5',
    'serviceUs=-5 is out of range (allowed 0..200000 in steps of 1000)',
  ],
  ['thread-packing', 'threads=0', 'threads=0 is out of range (allowed 1..32)'],
  ['thread-packing', 'cores=99', 'cores=99 is out of range (allowed 1..16)'],
  ['thread-packing', 'schedule=pinned', 'schedule=pinned is not one of packed, os'],
])('#/lessons/%s?%s', (slug, query, message) => {
  test('is named, and the control and the experiment are on the default', async () => {
    page = await openPage(`#/lessons/${slug}?${query}`);
    expect(page.alerts().join('\n')).toContain(message);
    expect(page.testId('experiment').dataset.state).toBe('idle');
    // The control, where the panel shows it (a lesson parameter such as the race's is read by
    // its own component).
    const id = query.split('=')[0];
    const control = lessonFile(slug).controls.find((c) => c.id === id);
    if (control && page.root.querySelector(`[data-control="${id}"]`))
      expect(page.control(id).value).toBe(String(control.defaultValue));
  });
});

describe.each([
  ['threads=-3', 'threads=-3 is out of range (allowed 1..64)'],
  ['threads=abc', 'threads=abc is not a whole number (allowed 1..64)'],
  ['threads=100000', 'threads=100000 is out of range (allowed 1..64)'],
  ['layout=diagonal', 'layout=diagonal is not one of packed, padded'],
])('#/threads?%s', (query, message) => {
  test('is named, and the page takes its fallback', async () => {
    page = await openPage(`#/threads?${query}`);
    expect(page.alerts().join('\n')).toContain(message);
    // The fallbacks: one thread per core (happy-dom says 8), packed counters.
    expect(page.root.querySelector<HTMLInputElement>('input[type=number]')?.value).toBe(
      String(Math.min(navigator.hardwareConcurrency, 64)),
    );
    expect(page.root.querySelector<HTMLInputElement>('input[type=radio]:checked')?.value).toBe(
      'packed',
    );
  });
});

test('a presenter step out of range is named and the first step shown', async () => {
  page = await openPage('#/present/pipelines-and-bubbles?step=99');
  expect(page.alerts().join('\n')).toMatch(/step=99 is out of range \(allowed 1\.\.\d+\); using 1/);
  expect(page.testId('present').dataset.step).toBe('1');
});
