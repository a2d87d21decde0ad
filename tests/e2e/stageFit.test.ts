// Views that fit (issue 39, item 2): on every route at 390, 768 and 1280 px wide the page never
// scrolls sideways and no view or chart is wider than its box (it reflows instead of scrolling in
// it), and on a 390 px phone every label in a view is at least 11 px. A lesson's live views are
// checked again once a run has filled them. At 1280×720, pressing Run brings the pipeline into
// sight.
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { openHarness, pageErrors, type Harness } from './harness';

const SLUGS = readdirSync(resolve(__dirname, '../../lessons'))
  .map((f) => /^\d{2}-([a-z0-9-]+)\.md$/.exec(f)?.[1])
  .filter((s): s is string => Boolean(s));
const ROUTES = ['/', '/threads', '/papers', ...SLUGS.map((s) => `/lessons/${s}`)];
const WIDTHS = [390, 768, 1280];

let h: Harness;
beforeAll(async () => {
  h = await openHarness({ isolationHeaders: true });
});
afterAll(() => h.close());

/** What overflows on the page: the page's own sideways scroll, views wider than their boxes, and
 * (at `minLabelPx`) view labels smaller than that. */
async function overflow(page: Page, minLabelPx: number) {
  return page.evaluate((minPx) => {
    const svgs = [...document.querySelectorAll<SVGSVGElement>('main svg[role=img]')].filter(
      (s) => s.getBoundingClientRect().width > 0,
    );
    const wide = svgs
      .filter((s) => s.getBoundingClientRect().width > s.parentElement!.clientWidth + 1)
      .map(
        (s) =>
          `${s.getAttribute('class')} ${Math.round(s.getBoundingClientRect().width)} > ${s.parentElement!.clientWidth}`,
      );
    const small = svgs
      .flatMap((s) => [...s.querySelectorAll('text')])
      .filter((t) => t.textContent?.trim() && parseFloat(getComputedStyle(t).fontSize) < minPx)
      .map((t) => `${t.textContent} ${getComputedStyle(t).fontSize}`);
    return {
      views: svgs.length,
      pageScroll: document.documentElement.scrollWidth - window.innerWidth,
      wide,
      small: small.slice(0, 5),
    };
  }, minLabelPx);
}

describe('no sideways scrolling', () => {
  for (const width of WIDTHS)
    test(`every route at ${width} px`, async () => {
      const page = await h.page();
      await page.setViewportSize({ width, height: 800 });
      const found: Record<string, unknown> = {};
      let views = 0;
      for (const route of ROUTES) {
        await page.goto(`${h.url}#${route}`);
        await page.waitForSelector('main');
        if (route.startsWith('/lessons/'))
          await page.waitForSelector('[data-testid=experiment][data-state=idle]');
        const o = await overflow(page, width <= 390 ? 11 : 0);
        views += o.views;
        if (o.pageScroll > 0 || o.wide.length || o.small.length) found[route] = o;
      }
      expect(found).toEqual({});
      // The check saw views: every lesson draws its charts (empty) before any run.
      expect(views).toBeGreaterThan(SLUGS.length);
      expect(pageErrors(page)).toEqual([]);
    });

  test('a lesson whose live views a run has filled, on a 390 px phone', async () => {
    const page = await h.page();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${h.url}#/lessons/pipelines-and-bubbles?engine=simulation`);
    await page.waitForSelector('[data-testid=experiment][data-state=idle]');
    await page.getByTestId('run').click();
    await page.waitForSelector('[data-testid=experiment][data-state=done]', { timeout: 90_000 });
    expect(await page.locator('.slot-timeline [data-testid=lane]').count()).toBeGreaterThan(0);
    expect(await overflow(page, 11)).toMatchObject({ pageScroll: 0, wide: [], small: [] });
  });
});

test('at 1280×720, Run brings the pipeline into sight and keeps the Run button in it', async () => {
  const page = await h.page();
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`${h.url}#/lessons/ends-of-the-pipeline`);
  await page.waitForSelector('[data-testid=experiment][data-state=idle]');
  await page.getByTestId('run').scrollIntoViewIfNeeded();
  await page.getByTestId('run').click();
  const inSight = async (selector: string) =>
    page.evaluate((s) => {
      const r = document.querySelector(s)!.getBoundingClientRect();
      return r.top >= 0 && r.bottom <= window.innerHeight;
    }, selector);
  await expect.poll(() => inSight('.slot-pipeline svg'), { timeout: 10_000 }).toBe(true);
  expect(await inSight('[data-testid=run]')).toBe(true);
});
