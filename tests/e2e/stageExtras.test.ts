// Issue 39's smaller items in Chromium: a tab title per route, next and previous lesson links,
// and a log-scale batch slider whose exact value is typed.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openHarness, pageErrors, type Harness } from './harness';
import { lessonFile } from './lessonHelpers';

let h: Harness;
beforeAll(async () => {
  h = await openHarness({ isolationHeaders: true });
});
afterAll(() => h.close());

test('each route has its own tab title; a lesson links its neighbours', async () => {
  const page = await h.page();
  await page.goto(`${h.url}#/`);
  await page.waitForSelector('main');
  const home = await page.title();
  const stealing = lessonFile('work-stealing-and-tokens');
  await page.goto(`${h.url}#/lessons/${stealing.slug}`);
  await expect.poll(() => page.title()).toBe(`${stealing.title} · PipeLab`);
  const nav = page.getByTestId('lesson-nav');
  expect(await nav.locator('a[rel=prev]').textContent()).toContain(
    lessonFile('pipelines-and-bubbles').title,
  );
  expect(await nav.locator('a[rel=next]').textContent()).toContain(
    lessonFile('balancing-a-static-pipeline').title,
  );
  await nav.locator('a[rel=next]').click();
  await expect
    .poll(() => page.title())
    .toBe(`${lessonFile('balancing-a-static-pipeline').title} · PipeLab`);
  await page.goto(`${h.url}#/papers`);
  await expect.poll(() => page.title()).toBe('What the papers found · PipeLab');
  await page.goto(`${h.url}#/`);
  await expect.poll(() => page.title()).toBe(home);
  expect(pageErrors(page)).toEqual([]);
});

test('the batch slider is on a log scale; its exact value is typed', async () => {
  const page = await h.page();
  await page.goto(`${h.url}?isolation=off#/lessons/ends-of-the-pipeline`);
  await page.waitForSelector('[data-testid=experiment][data-state=idle]');
  const slider = page.locator('[data-testid=experiment] input[data-log-scale=batch]');
  // The default 64 of 1..4096 sits mid-way (linear, it sat 1.5% from the left).
  expect(Number(await slider.inputValue())).toBe(500);
  const exact = page.locator('[data-testid=experiment] input[data-control=batch]');
  await exact.fill('100');
  await expect.poll(() => page.url()).toContain('batch=100');
  expect(Number(await slider.inputValue())).toBe(
    Math.round((1000 * Math.log(100)) / Math.log(4096)),
  );
  expect(pageErrors(page)).toEqual([]);
});

test('a run on threads while busy processes load the machine says it was disturbed', async () => {
  // Busy loops on every core for the length of the run (killed after it, whatever happens).
  const { spawn } = await import('node:child_process');
  const { availableParallelism } = await import('node:os');
  const hogs = Array.from({ length: availableParallelism() + 1 }, () =>
    spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }),
  );
  try {
    const page = await h.page();
    await page.goto(`${h.url}#/lessons/work-stealing-and-tokens?threads=1`);
    await page.waitForSelector('[data-testid=experiment][data-engine=threads][data-state=idle]');
    await page.getByTestId('run').click();
    const note = page.getByTestId('disturbed');
    await note.waitFor({ timeout: 120_000 });
    expect(await note.textContent()).toMatch(/disturbed:.*Close other tabs and programs/);
    // The model's number stays beside it.
    expect(await page.locator('.run-numbers dd[data-kind=model]').count()).toBeGreaterThan(0);
    expect(pageErrors(page)).toEqual([]);
  } finally {
    for (const p of hogs) p.kill();
  }
});
