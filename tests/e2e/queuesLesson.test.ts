// The lesson "Queues and cache lines" in real Chromium: on real threads the slow-motion BatchQueue
// run moves the cache-line view with the real indices and ends on a flush; the race measures every
// queue, filling the bars as runs end, and reports BatchQueue over Vyukov to the paper table and
// which way padding moved each padded queue;
// leaving the page mid-race leaves no Worker (no thread) running. (Bad control values:
// tests/unit/pages.)
// Not isolated, the experiment runs on the twin, the views that need a real queue say so, and the
// only measured marks are the committed benchmark's, labelled as such.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { RACE_QUEUES } from '../../src/spec/raceConfig';
import { openHarness, pageErrors, type Harness } from './harness';
import { lessonFile, openLesson, runToDone } from './lessonHelpers';

const SLUG = 'queues-and-cache-lines';
/** The race's Stop, there while its plan runs. */
const raceStop = (page: Page) => page.locator('[data-testid=queue-race] [data-testid=plan-stop]');
const lesson = lessonFile(SLUG);
/** The lesson's run: its items through a BatchQueue of two semi-buffers of capacity / 2 items. */
const spec = lesson.experiment as { items: number; queue: { capacity: number } };
const semiItems = spec.queue.capacity / 2;
let h: Harness;
beforeAll(async () => {
  h = await openHarness({ isolationHeaders: true });
});
afterAll(() => h.close());

const view = (page: Page) => page.getByTestId('cacheline-view');
const num = async (page: Page, attr: string) => Number(await view(page).getAttribute(attr));

describe('on real threads', () => {
  test('the cache-line view moves with the real indices of the run', async () => {
    const page = await h.page();
    // 20 ms per item per stage (the default): one-line semi-buffers of 4 items flip every ~80 ms.
    await page.goto(`${h.url}#/lessons/${SLUG}?serviceUs=20000`);
    const panel = page.getByTestId('experiment');
    await expect.poll(() => panel.getAttribute('data-state')).toBe('idle');
    expect(await panel.getAttribute('data-engine')).toBe('threads');
    expect(await num(page, 'data-items-written')).toBe(0);
    await page.getByTestId('run').click();
    // Moves while running: items written rise and `status` flips, seen at two moments.
    await expect
      .poll(() => num(page, 'data-items-written'), { timeout: 20_000 })
      .toBeGreaterThan(0);
    const first = await num(page, 'data-items-written');
    await expect
      .poll(() => num(page, 'data-items-written'), { timeout: 20_000 })
      .toBeGreaterThan(first);
    await h.screenshot(page, `lesson-${SLUG}-cachelines`);
    await page.waitForSelector('[data-testid=experiment][data-state=done]', { timeout: 60_000 });
    expect(await page.getByTestId('throughput').getAttribute('data-kind')).toBe('measured');
    // Every item written and read, the last partial semi-buffer by a flush (83 items in
    // semi-buffers of 4: the last 3); each semi-buffer flips status twice (published, released).
    await expect.poll(() => num(page, 'data-items-read')).toBe(spec.items);
    expect(await num(page, 'data-items-written')).toBe(spec.items);
    expect(await view(page).getAttribute('data-status')).toBe('false');
    expect(await num(page, 'data-flips')).toBe(2 * Math.ceil(spec.items / semiItems));
    expect(await page.getByTestId('handoffs-per-item').textContent()).toMatch(
      /per item: \d+\.\d\d with this layout/,
    );
    expect(pageErrors(page)).toEqual([]);
  });

  test('the race measures every queue and reports the paper ratio; leaving ends its threads', async () => {
    const page = await h.page();
    await page.goto(`${h.url}#/lessons/${SLUG}`);
    const bars = page.locator(
      '[data-testid=queue-race] [data-testid=race-bar][data-source=visitor]',
    );
    await expect.poll(() => bars.count()).toBe(RACE_QUEUES.length);
    await page.getByTestId('race-run').click();
    const measuredBars = () =>
      bars.evaluateAll(
        (els) => els.filter((e) => Number(e.getAttribute('data-items-per-s')) > 0).length,
      );
    // Bars fill in as runs end, before the race is over.
    await expect.poll(measuredBars, { timeout: 60_000 }).toBeGreaterThan(0);
    expect(await raceStop(page).count()).toBe(1);
    await expect.poll(() => raceStop(page).count(), { timeout: 120_000 }).toBe(0);
    expect(await measuredBars()).toBe(RACE_QUEUES.length);
    const ratio = page.getByTestId('race-ratio');
    expect(Number(await ratio.getAttribute('data-ratio'))).toBeGreaterThan(0);
    const row = page.locator(
      '[data-testid=paper-claim][data-row=comm-2][data-kind=measured]:not([data-source])',
    );
    expect(Number(await row.getAttribute('data-ours-value'))).toBe(
      Number(await ratio.getAttribute('data-ratio')),
    );
    const paper = lesson.paper.find((r) => r.id === 'comm-2')!.paperValue;
    expect(Number(await row.getAttribute('data-paper-value'))).toBe(paper);
    // The committed native benchmark's row is there too, labelled as such.
    expect(
      await page
        .locator('[data-testid=paper-claim][data-row=comm-2][data-source=benchmark]')
        .count(),
    ).toBe(1);
    await h.screenshot(page, `lesson-${SLUG}-race`);
    // The same rounds give the false-sharing section its ratios; each says which way padding
    // moved its queue as every round's ratio does (Lamport's ring may go either way).
    const padding = await page.getByTestId('padding-ratio').evaluateAll((ps) =>
      ps.map((p) => ({
        min: Number(p.getAttribute('data-min')),
        max: Number(p.getAttribute('data-max')),
        text: p.textContent,
      })),
    );
    expect(padding.length).toBe(2);
    for (const { min, max, text } of padding) {
      const way =
        min > 1
          ? /sped .* up in all \d+ rounds/
          : max < 1
            ? /slowed .* down in all \d+ rounds/
            : /did not move .* the same way/;
      expect(text).toMatch(way);
    }

    // Mid-race, leave: the lesson's engine workers and their pthread Workers all end.
    await page.getByTestId('race-run').click();
    await expect.poll(() => raceStop(page).count()).toBe(1);
    expect(page.workers().length).toBeGreaterThan(0);
    await page.evaluate(() => (location.hash = '#/'));
    await expect.poll(() => page.workers().length, { timeout: 20_000 }).toBe(0);
    expect(pageErrors(page)).toEqual([]);
  });
});

describe('not cross-origin isolated', () => {
  let plain: Harness;
  beforeAll(async () => {
    plain = await openHarness({ isolationHeaders: false });
  });
  afterAll(() => plain.close());

  test('the experiment runs on the twin; the race shows the benchmark, labelled', async () => {
    const page = await openLesson(plain, SLUG, 'simulation', 'serviceUs=1000');
    await runToDone(page);
    expect(await page.getByTestId('throughput').getAttribute('data-kind')).toBe('simulated');
    expect(await page.getByTestId('cacheline-needs-threads').count()).toBe(1);
    expect(await page.getByTestId('race-unavailable').count()).toBe(1);
    expect(await page.getByTestId('race-run').count()).toBe(0);
    // Measured marks here are only the committed benchmark's, each saying so.
    expect(await page.locator('[data-kind=measured]:not([data-source=benchmark])').count()).toBe(0);
    expect(
      await page
        .locator('[data-testid=queue-race] [data-testid=race-bar][data-source=benchmark]')
        .count(),
    ).toBe(RACE_QUEUES.length);
    await plain.screenshot(page, `lesson-${SLUG}-simulated`);
    expect(pageErrors(page)).toEqual([]);
  });
});
