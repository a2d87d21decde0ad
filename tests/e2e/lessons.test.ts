// The lessons in real Chromium: listed on the home page, each runs its experiment with live
// views, draws its model curve and sweep points, pauses and resumes on real threads, and survives
// bad query values with a clear message. Screenshots are kept.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { openHarness, pageErrors, type Harness } from './harness';

const LESSONS = [
  { slug: 'pipelines-and-bubbles', sweepControl: 'extractThreads' },
  { slug: 'work-stealing-and-tokens', sweepControl: 'tokens' },
];

let h: Harness;
beforeAll(async () => {
  h = await openHarness({ isolationHeaders: true });
});
afterAll(() => h.close());

/** The panel's "done / items" as two numbers. */
async function completedOf(page: Page): Promise<[number, number]> {
  const [done, items] = (await page.getByTestId('completed').textContent())!.split('/').map(Number);
  return [done, items];
}
const completedNow = async (page: Page) => (await completedOf(page))[0];

/** Runs the experiment until items come out (a full run is covered by the lesson tests). */
async function runUntilItemsOut(page: Page) {
  await page.getByTestId('run').click();
  await page.waitForSelector('[data-testid=experiment][data-state=running]', { timeout: 20_000 });
  await expect.poll(() => completedNow(page)).toBeGreaterThan(0);
  await page.getByTestId('stop').click();
  await page.waitForSelector('[data-testid=experiment][data-state=done]', { timeout: 20_000 });
}

test('the home page lists every lesson', async () => {
  const page = await h.page();
  await page.goto(h.url);
  for (const l of LESSONS)
    await expect.poll(() => page.locator(`a[href="#/lessons/${l.slug}"]`).count()).toBe(1);
});

describe.each(LESSONS)('lesson $slug', ({ slug }) => {
  test('runs, animates, and draws model and measured marks', async () => {
    const page = await h.page();
    await page.goto(`${h.url}#/lessons/${slug}`);
    const panel = page.getByTestId('experiment');
    await expect.poll(() => panel.getAttribute('data-state')).toBe('idle');
    const engine = await panel.getAttribute('data-engine');
    expect(['threads', 'simulation']).toContain(engine);
    await expect
      .poll(() => page.locator('.engine-badge').textContent())
      .toMatch(/Real threads|Simulated/);
    expect(await page.locator('[data-kind=model]').count()).toBeGreaterThan(0);

    await page.getByTestId('run').click();
    await page.waitForSelector('[data-testid=experiment][data-state=running]', { timeout: 20_000 });
    const firstCompleted = await completedNow(page);
    await page.waitForTimeout(800);
    const laterCompleted = await completedNow(page);
    expect(laterCompleted).toBeGreaterThan(firstCompleted);
    await h.screenshot(page, `lesson-${slug}-running`);
    await page.waitForSelector('[data-testid=experiment][data-state=done]', { timeout: 60_000 });
    const [done, items] = await completedOf(page);
    expect(done).toBe(items);
    const kind = engine === 'threads' ? 'measured' : 'simulated';
    expect(await page.getByTestId('throughput').getAttribute('data-kind')).toBe(kind);

    // The finished run is a point on the chart; the sweep adds one per x (measured or simulated).
    const marks = (k: string) => page.locator(`.model-chart-block circle[data-kind=${k}]`).count();
    await expect.poll(() => marks(kind)).toBeGreaterThan(0);
    const before = (await marks('measured')) + (await marks('simulated'));
    await page.getByTestId('sweep').click();
    await expect.poll(() => page.getByTestId('sweep').isEnabled(), { timeout: 90_000 }).toBe(true);
    expect((await marks('measured')) + (await marks('simulated'))).toBeGreaterThan(before + 10);
    await h.screenshot(page, `lesson-${slug}-swept`);
    expect(pageErrors(page)).toEqual([]);
  });
});

test('on real threads a lesson run pauses (nothing completes), resumes and finishes', async () => {
  const page = await h.page();
  await page.goto(`${h.url}#/lessons/pipelines-and-bubbles`);
  const panel = page.getByTestId('experiment');
  await expect.poll(() => panel.getAttribute('data-state')).toBe('idle');
  expect(await panel.getAttribute('data-engine')).toBe('threads');
  const t0 = Date.now();
  await page.getByTestId('run').click();
  await expect.poll(() => completedNow(page), { timeout: 20_000 }).toBeGreaterThan(0);
  await page.getByTestId('pause').click();
  await expect.poll(() => panel.getAttribute('data-run-state')).toBe('paused');
  expect(await page.getByTestId('pause').count()).toBe(0);
  // The threads finish the items in hand (up to tens of ms each here), then the count holds.
  let held = -1;
  await expect
    .poll(
      async () => {
        const before = await completedNow(page);
        await page.waitForTimeout(400);
        held = await completedNow(page);
        return held === before;
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  const holdMs = 1500;
  await page.waitForTimeout(holdMs);
  expect(await completedNow(page)).toBe(held);
  const [, items] = await completedOf(page);
  expect(held).toBeLessThan(items);
  await h.screenshot(page, 'lesson-pipelines-and-bubbles-paused');

  await page.getByTestId('resume').click();
  await expect.poll(() => panel.getAttribute('data-run-state')).toBe('running');
  await expect.poll(() => completedNow(page), { timeout: 20_000 }).toBeGreaterThan(held);
  await page.waitForSelector('[data-testid=experiment][data-state=done]', { timeout: 60_000 });
  const wallMs = Date.now() - t0;
  expect(await completedNow(page)).toBe(items);
  // The measured run time leaves the pause out (the threads' clock stood still during the hold).
  const elapsedMs = Number(await panel.getAttribute('data-elapsed-us')) / 1000;
  expect(elapsedMs).toBeGreaterThan(0);
  expect(elapsedMs).toBeLessThan(wallMs - holdMs);
  expect(pageErrors(page)).toEqual([]);
});

test.each([
  ['work-stealing-and-tokens', 'threads=-3', 'threads=-3 is out of range (allowed 1..64)'],
  ['work-stealing-and-tokens', 'tokens=abc', 'tokens=abc is not a whole number (allowed 1..32)'],
  ['work-stealing-and-tokens', 'threads=100000', 'threads=100000 is out of range (allowed 1..64)'],
  ['work-stealing-and-tokens', 'stages=9', 'stages=9 is not one of 4, 7'],
  ['pipelines-and-bubbles', 'queue=0', 'queue=0 is out of range (allowed 1..64)'],
  ['pipelines-and-bubbles', 'bogus=1', 'bogus is not a control of this lesson'],
])('%s?%s: a clear message, defaults used, the lesson still runs', async (slug, query, message) => {
  const page = await h.page();
  await page.goto(`${h.url}#/lessons/${slug}?${query}`);
  await expect.poll(() => page.getByRole('alert').first().textContent()).toContain(message);
  await runUntilItemsOut(page);
  expect(pageErrors(page)).toEqual([]);
});

test('an unknown lesson says so', async () => {
  const page = await h.page();
  await page.goto(`${h.url}#/lessons/no-such-lesson`);
  await expect.poll(() => page.getByRole('alert').first().textContent()).toContain('No page at');
});

describe('not cross-origin isolated', () => {
  let plain: Harness;
  beforeAll(async () => {
    plain = await openHarness({ isolationHeaders: false });
  });
  afterAll(() => plain.close());

  test('the same lesson runs on the simulation and says why', async () => {
    const page = await plain.page();
    await page.goto(`${plain.url}?isolation=off#/lessons/pipelines-and-bubbles`);
    await page.waitForSelector('[data-testid=experiment][data-engine=simulation][data-state=idle]');
    await expect
      .poll(() => page.locator('.engine-badge').textContent())
      .toContain('not cross-origin isolated');
    await page.getByTestId('run').click();
    await page.waitForSelector('[data-testid=experiment][data-state=done]', { timeout: 60_000 });
    expect(await page.getByTestId('throughput').getAttribute('data-kind')).toBe('simulated');
    await plain.screenshot(page, 'lesson-pipelines-and-bubbles-simulated');
    expect(pageErrors(page)).toEqual([]);
  });
});
