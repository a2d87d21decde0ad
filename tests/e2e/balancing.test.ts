// Lesson 3, "Balancing a static pipeline", in real Chromium: both layouts run one after the other
// on real threads with their breakdowns side by side (and on the simulation where the page asks
// for it), "Size it for me" sets and runs a configuration shown beside its prediction, the
// oversubscription table measures two thread counts, and bad controls get a clear message.
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { openHarness, pageErrors, type Harness } from './harness';

const LESSON = '#/lessons/balancing-a-static-pipeline';

let h: Harness;
beforeAll(async () => {
  h = await openHarness({ isolationHeaders: true });
});
afterAll(() => h.close());

async function open(query = ''): Promise<Page> {
  const page = await h.page();
  await page.goto(`${h.url}${LESSON}${query}`);
  await expect.poll(() => page.getByTestId('experiment').getAttribute('data-state')).toBe('idle');
  return page;
}

/** The breakdown rows of one layout's panel, as data attributes. */
const panelRows = (page: Page, layout: string) =>
  page
    .locator(
      `[data-testid=stage-breakdown] figure[data-layout="${layout}"] [data-testid=breakdown-stage]`,
    )
    .evaluateAll((rows) =>
      rows.map((r) => ({
        stage: r.getAttribute('data-stage'),
        useful: Number(r.getAttribute('data-useful')),
        bottleneck: r.getAttribute('data-bottleneck') === 'true',
      })),
    );

test('both layouts run on real threads, their breakdowns side by side, the bottleneck marked', async () => {
  const page = await open();
  expect(await page.getByTestId('experiment').getAttribute('data-engine')).toBe('threads');
  await page.getByTestId('run-both').click();
  await page.waitForSelector('[data-testid=breakdown-comparison]', { timeout: 60_000 });
  const numbers = page.locator('[data-testid=breakdown-numbers]');
  expect(await numbers.count()).toBe(2);
  expect(await numbers.evaluateAll((n) => n.map((x) => x.getAttribute('data-kind')))).toEqual([
    'measured',
    'measured',
  ]);
  const six = await panelRows(page, '6');
  expect(six.map((r) => r.stage)).toEqual([
    'input',
    'segment',
    'extract',
    'vectorize',
    'rank',
    'output',
  ]);
  expect(six.filter((r) => r.bottleneck).map((r) => r.stage)).toEqual(['rank']);
  const three = await panelRows(page, '3');
  expect(three.map((r) => r.stage)).toEqual([
    'input',
    'segment + extract + vectorize + rank',
    'output',
  ]);
  expect(three.filter((r) => r.bottleneck)).toHaveLength(1);
  // Both runs are measured points on the time chart (a filled circle each, the layout's letter
  // beside it), and the paper table shows the measured ratio.
  const chart = page.getByTestId('layout-chart');
  const measuredPoints = chart.locator('[data-testid=point]:has(.dot[data-kind=measured])');
  const series = await measuredPoints
    .locator('.series-mark')
    .evaluateAll((m) => m.map((x) => x.getAttribute('data-series')));
  expect(new Set(series)).toEqual(new Set(['0', '1']));
  expect(await chart.locator('.dot[data-kind=measured]').count()).toBe(series.length);
  const measuredRow = page.locator(
    '[data-testid=paper-claim][data-row=collapse-beats-six][data-kind=measured]',
  );
  await expect.poll(() => measuredRow.count()).toBe(1);
  expect(Number(await measuredRow.getAttribute('data-ours-value'))).toBeGreaterThan(0);
  await h.screenshot(page, 'lesson-balancing-both-layouts');
  expect(pageErrors(page)).toEqual([]);
});

test('"Size it for me" measures, shows the equations, sets the controls and runs beside the prediction', async () => {
  const page = await open('?layout=3');
  await page.getByTestId('size-it-button').click();
  await page.waitForSelector('[data-testid=size-it][data-phase=done]', { timeout: 60_000 });
  await expect
    .poll(() => page.getByTestId('sizing-measured').getAttribute('data-value'))
    .not.toBe('');
  const formulas = await page
    .locator('.sizing-formulas li')
    .evaluateAll((l) => l.map((x) => x.getAttribute('data-formula')));
  expect(formulas).toEqual(expect.arrayContaining(['eq8', 'eq9', 'eq10', 'cores', 'nopt']));
  // c_optimal is substituted, or, where the measured times put λ_max out of reach of every npTh
  // (a loaded machine can measure the input stage fast and the rest slow), the page says why, in
  // a sentence of its own (capitalised).
  if (!formulas.includes('copt'))
    expect((await page.getByTestId('sizing-note').allTextContents()).join(' ')).toMatch(
      /No npTh up to \d+ brings λe within 2% of λ_max/,
    );
  expect(await page.locator('.sizing-formulas .katex').count()).toBe(formulas.length);
  const predicted = Number(await page.getByTestId('sizing-predicted').getAttribute('data-value'));
  const measured = Number(await page.getByTestId('sizing-measured').getAttribute('data-value'));
  expect(predicted).toBeGreaterThan(0);
  expect(measured).toBeGreaterThan(0);
  expect(await page.getByTestId('sizing-measured').getAttribute('data-kind')).toBe('measured');
  // The printed service times add up to the printed ΣT.
  const times = (await page.getByTestId('measured-times').textContent()) ?? '';
  const parts = [...times.replace(/ΣT.*/, '').matchAll(/(\d+) µs/g)].map((m) => Number(m[1]));
  expect(parts.length, times).toBeGreaterThanOrEqual(3);
  expect(
    parts.reduce((a, b) => a + b, 0),
    times,
  ).toBe(Number(/ΣT = (\d+) µs/.exec(times)?.[1]));
  // The controls moved to the sized configuration, and the URL with them.
  const set = await page.getByTestId('sizing-result').textContent();
  const [, npTh, queue] = /npTh = (\d+), queue size N = (\d+)/.exec(set ?? '') ?? [];
  expect(npTh, set ?? '').toBeDefined();
  expect(page.url()).toContain(`npTh=${npTh}`);
  expect(page.url()).toContain(`queue=${queue}`);
  expect(pageErrors(page)).toEqual([]);
});

test('oversubscription: the fewest threads and several per core, measured with speed-up and efficiency', async () => {
  const page = await open('?layout=3');
  await page.getByTestId('measure-oversubscription').click();
  const rows = page.locator('[data-testid=oversubscription] tr[data-kind=measured]');
  await expect.poll(() => rows.count(), { timeout: 60_000 }).toBe(2);
  const speedups = await page.getByTestId('speedup').allTextContents();
  expect(speedups.map(Number).every((x) => x > 0)).toBe(true);
  const row = page.locator(
    '[data-testid=paper-claim][data-row=oversubscribed-beats-one-per-core][data-kind=measured]',
  );
  await expect.poll(() => row.count()).toBe(1);
  // The table ran its own specs, not the controls', and no control moved: the panel says nothing
  // about changed settings.
  expect(await page.getByTestId('settings-moved').count()).toBe(0);
  expect(pageErrors(page)).toEqual([]);
});

test('on the simulation both layouts run too, marked simulated', async () => {
  const page = await open('?engine=simulation&items=60');
  await page.getByTestId('run-both').click();
  await page.waitForSelector('[data-testid=breakdown-comparison]', { timeout: 30_000 });
  expect(
    await page
      .locator('[data-testid=breakdown-numbers]')
      .evaluateAll((n) => n.map((x) => x.getAttribute('data-kind'))),
  ).toEqual(['simulated', 'simulated']);
  // Next to the result, what the twin assumed about cores (Size it for me's twin shares them).
  expect(await page.getByTestId('stage-breakdown').locator('.buttons .hint').textContent()).toMatch(
    /the twin gives each of its \d+ threads a core of its own, as the models do$/,
  );
  expect(pageErrors(page)).toEqual([]);
});
