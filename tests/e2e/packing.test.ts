// Lesson 7, "Packing threads on cores", in real Chromium. On real threads: the packed run (3
// threads on 2 core threads) draws the packing grid live from its telemetry — core 0 holds 2
// threads, core 1 one — with a measured throughput and imbalance factor, and the TR/TP comparison
// measures every row on the visitor's cores and fills the paper rows it reports. (A budget above
// the visitor's cores, and bad control values: tests/unit/pages.) Without
// cross-origin isolation the whole lesson runs on the twin, labelled simulated.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { openHarness, pageErrors, type Harness } from './harness';
import { block, blockMarks, lessonFile, openLesson, runBlock, runToDone } from './lessonHelpers';

const SLUG = 'thread-packing';
/** The cores the lesson's TP/TR block sweeps (its `measure` block `cores`). */
const CORE_COUNTS = lessonFile(SLUG).measure.find((b) => b.id === 'cores')!.values.length;

/** Sweeps the cores block with the twin only: every point simulated, none measured, and the
 * block says why it ran nothing on threads. */
async function sweepCoresOnTheTwin(page: Page, why: RegExp) {
  await runBlock(page, 'cores', undefined, 120_000);
  expect(await blockMarks(page, 'cores', 'simulated')).toBe(CORE_COUNTS);
  expect(await blockMarks(page, 'cores', 'measured')).toBe(0);
  expect(await block(page, 'cores').getByTestId('measure-hint').textContent()).toMatch(why);
}

let h: Harness;
beforeAll(async () => {
  h = await openHarness({ isolationHeaders: true });
});
afterAll(() => h.close());

/** The grid's columns as [core, threads on it]. */
async function gridColumns(page: Page): Promise<Array<[string, number]>> {
  return page
    .locator('[data-testid=packing-grid] [data-testid=packing-core]')
    .evaluateAll((gs) =>
      gs.map((g) => [g.getAttribute('data-core')!, Number(g.getAttribute('data-threads'))]),
    );
}

test('packed on real threads: the grid is drawn from the run, one core holds two threads', async () => {
  const page = await h.page();
  await page.goto(`${h.url}#/lessons/${SLUG}`);
  const panel = page.getByTestId('experiment');
  await expect.poll(() => panel.getAttribute('data-state')).toBe('idle');
  expect(await panel.getAttribute('data-engine')).toBe('threads');
  // Before the run the grid previews the twin, and says so.
  expect(await page.getByTestId('packing-grid-preview').count()).toBe(1);
  expect(await page.getByTestId('packing-grid').getAttribute('data-kind')).toBe('simulated');
  // The legend's "computing" swatch is the colour of the bars it names, simulated or measured.
  const colours = () =>
    page
      .getByTestId('packing-grid')
      .evaluate((g) => [
        getComputedStyle(g.querySelector('.swatch.computing')!).backgroundColor,
        getComputedStyle(g.querySelector('rect.computing')!).fill,
      ]);
  const [swatch, bar] = await colours();
  expect(swatch).toBe(bar);

  await runToDone(page, 90_000);
  const [done, items] = (await page.getByTestId('completed').textContent())!.split('/').map(Number);
  expect(done).toBe(items);
  expect(await page.getByTestId('throughput').getAttribute('data-kind')).toBe('measured');
  const grid = page.getByTestId('packing-grid');
  expect(await grid.getAttribute('data-kind')).toBe('measured');
  expect(await page.getByTestId('packing-grid-preview').count()).toBe(0);
  const [measuredSwatch, measuredBar] = await colours();
  expect(measuredSwatch).toBe(measuredBar);
  expect(measuredBar).not.toBe(bar);
  // Thread t on core t mod 2: ⌈3/2⌉ = 2 threads on core 0, ⌊3/2⌋ = 1 on core 1.
  expect(await gridColumns(page)).toEqual([
    ['0', 2],
    ['1', 1],
  ]);
  expect(await grid.locator('[data-testid=packing-thread]').count()).toBe(3);
  expect(await grid.locator('[data-testid=barrier-wait]').count()).toBe(3);
  expect(await grid.locator('figcaption').textContent()).toMatch(
    /^Interval \d+ took [\d.]+ ms\. Core \d ran \d threads? and finished last/,
  );
  // The packed run measured the imbalance factor for the paper row.
  expect(await page.getByTestId('measured-imbalance').count()).toBe(1);
  const imbalance = page.locator(
    '[data-testid=paper-claim][data-row=imbalance][data-kind=measured]',
  );
  await expect.poll(() => imbalance.count()).toBe(1);
  expect(Number(await imbalance.getAttribute('data-ours-value'))).toBeGreaterThan(0);
  await h.screenshot(page, `lesson-${SLUG}-done`);
  expect(pageErrors(page)).toEqual([]);
});

test('TR against TP measured on the visitor’s cores, every row and the paper rows it reports', async () => {
  const page = await h.page();
  await page.goto(`${h.url}#/lessons/${SLUG}`);
  await expect.poll(() => page.getByTestId('experiment').getAttribute('data-state')).toBe('idle');
  // A row per thread count written in the visitor's cores C (C+1, 2C-1, 2C; equal ones once),
  // each TP run over the TR run of C threads on C cores.
  const compare = block(page, 'your-cores');
  const rows = compare.locator('tbody tr');
  const planned = await rows.count();
  expect(planned).toBeGreaterThanOrEqual(2);
  expect(await rows.first().locator('td').first().textContent()).toMatch(/^\d+ \(C\+1\)$/);
  await runBlock(page, 'your-cores', undefined, 240_000);
  // Every row's three TP/TR columns (your OS fine, explicit packing, your OS coarse) measured,
  // the twin's beside them simulated, the bound modelled.
  expect(await compare.locator('tbody tr[data-kind=measured]').count()).toBe(planned);
  for (const [series, kind] of [
    ['s0', 'measured'],
    ['s1', 'measured'],
    ['s2', 'measured'],
    ['s3', 'simulated'],
    ['s4', 'model'],
  ]) {
    const cells = compare.locator(`td[data-series=${series}]`);
    expect(await cells.evaluateAll((cs) => cs.map((c) => c.getAttribute('data-kind')))).toEqual(
      Array(planned).fill(kind),
    );
    for (const v of await cells.evaluateAll((cs) => cs.map((c) => c.getAttribute('data-value'))))
      expect(Number(v)).toBeGreaterThan(0);
  }
  for (const row of ['tp-over-tr', 'fine-over-coarse'])
    await expect
      .poll(() =>
        page.locator(`[data-testid=paper-claim][data-row=${row}][data-kind=measured]`).count(),
      )
      .toBe(1);
  expect(pageErrors(page)).toEqual([]);
});

test('with the simulation chosen, the cores sweep simulates too, and says so', async () => {
  // Isolated, so real threads were there to take: the sweep once ran on them anyway, and its
  // points were drawn "measured" under a panel saying "you chose the simulation".
  const page = await h.page();
  await page.goto(`${h.url}#/lessons/${SLUG}?engine=simulation`);
  await expect
    .poll(() => page.getByTestId('experiment').getAttribute('data-engine'))
    .toBe('simulation');
  await sweepCoresOnTheTwin(
    page,
    /^All \d+ runs on the twin \(you chose the simulation\): simulated/,
  );
  expect(pageErrors(page)).toEqual([]);
});

describe('not cross-origin isolated', () => {
  let plain: Harness;
  beforeAll(async () => {
    plain = await openHarness({ isolationHeaders: false });
  });
  afterAll(() => plain.close());

  test('the lesson runs on the twin, labelled simulated, and says what needs real threads', async () => {
    const page = await openLesson(plain, SLUG, 'simulation');
    await expect
      .poll(() => page.locator('.engine-badge').textContent())
      .toContain('not cross-origin isolated');
    await runToDone(page, 90_000);
    expect(await page.getByTestId('throughput').getAttribute('data-kind')).toBe('simulated');
    expect(await page.getByTestId('packing-grid').getAttribute('data-kind')).toBe('simulated');
    // TR against TP on "your cores" runs on the twin here, every row simulated, and says why.
    await runBlock(page, 'your-cores');
    const compare = block(page, 'your-cores');
    const rows = await compare.locator('tbody tr').count();
    expect(await compare.locator('tbody tr[data-kind=simulated]').count()).toBe(rows);
    expect(await compare.locator('td[data-kind=measured]').count()).toBe(0);
    expect(await compare.getByTestId('measure-hint').textContent()).toMatch(
      /^All \d+ runs on the twin \(.*not cross-origin isolated.*\): simulated/,
    );
    await sweepCoresOnTheTwin(
      page,
      /^All \d+ runs on the twin \(.*not cross-origin isolated.*\): simulated/,
    );
    expect(pageErrors(page)).toEqual([]);
  });
});
