// The glossary in Chromium on the production build: a marked term shows its definition under it
// while the pointer is over it and while it has keyboard focus (described by the box, for a screen
// reader), Escape and moving away hide it, and the papers page's terms work the same way.
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { GLOSSARY } from '../../src/lessons/glossary';
import { openHarness, pageErrors, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await openHarness({ isolationHeaders: true });
});
afterAll(() => h.close());

async function open(hash: string): Promise<Page> {
  const page = await h.page();
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`${h.url}${hash}`);
  await page.waitForSelector('#root > *');
  return page;
}

const tip = (page: Page) => page.getByTestId('glossary-tip');

test('a term shows its definition on hover, under the term, and hides when the pointer leaves', async () => {
  const page = await open('#/lessons/pipelines-and-bubbles');
  await expect(tip(page).count()).resolves.toBe(0);
  const term = page.locator('[data-term="case-1"]').first();
  await term.hover();
  await tip(page).waitFor();
  expect(await tip(page).getAttribute('data-for-term')).toBe('case-1');
  expect(await tip(page).textContent()).toContain(GLOSSARY['case-1'].definition);
  const t = (await term.boundingBox())!;
  const b = (await tip(page).boundingBox())!;
  expect(b.y).toBeGreaterThanOrEqual(t.y + t.height);
  expect(b.x + b.width).toBeLessThanOrEqual(1280);
  await h.screenshot(page, 'glossary-hover');
  await page.mouse.move(5, 5);
  await tip(page).waitFor({ state: 'detached' });
  expect(pageErrors(page)).toEqual([]);
});

test('a term shows its definition on keyboard focus, described by it, and Escape hides it', async () => {
  const page = await open('#/lessons/pipelines-and-bubbles');
  const term = page.locator('[data-term="twin"]').first();
  // Tab until the term has focus: it is a Tab stop of its own.
  await page.locator('body').focus();
  for (let i = 0; i < 200; i++) {
    await page.keyboard.press('Tab');
    if (await term.evaluate((el) => el === document.activeElement)) break;
  }
  expect(await term.evaluate((el) => el === document.activeElement)).toBe(true);
  await tip(page).waitFor();
  expect(await tip(page).textContent()).toContain(GLOSSARY.twin.definition);
  expect(await tip(page).getAttribute('role')).toBe('tooltip');
  expect(await term.getAttribute('aria-describedby')).toBe(await tip(page).getAttribute('id'));
  await page.keyboard.press('Escape');
  await tip(page).waitFor({ state: 'detached' });
  expect(await term.getAttribute('aria-describedby')).toBeNull();
  // Back onto the term by keyboard shows it again; focus moving on hides it.
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  await tip(page).waitFor();
  expect(await tip(page).getAttribute('data-for-term')).toBe('twin');
  await page.keyboard.press('Tab');
  await expect
    .poll(
      async () =>
        (await tip(page).count()) === 0 ||
        (await tip(page).getAttribute('data-for-term')) !== 'twin',
    )
    .toBe(true);
});

test('at 390 px the box stays inside the window', async () => {
  const page = await open('#/lessons/work-stealing-and-tokens');
  await page.setViewportSize({ width: 390, height: 800 });
  const term = page.locator('[data-term="erlang-b"]').first();
  await term.scrollIntoViewIfNeeded();
  await term.focus();
  await tip(page).waitFor();
  const b = (await tip(page).boundingBox())!;
  expect(b.x).toBeGreaterThanOrEqual(0);
  expect(b.x + b.width).toBeLessThanOrEqual(390);
  await h.screenshot(page, 'glossary-narrow');
});

test('the papers page marks its terms the same way', async () => {
  const page = await open('#/papers');
  await page.locator('[data-term="twin"]').first().hover();
  await tip(page).waitFor();
  expect(await tip(page).textContent()).toContain(GLOSSARY.twin.definition);
});
