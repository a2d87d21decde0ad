// The run planner on a real page (real threads): a sweep shows its progress (run k of n, the time
// left), Stop ends it with its finished points kept on the chart and the progress at k of n; Run
// while a sweep goes on stops the sweep (the latest plan wins) and says what replaced it.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openHarness, pageErrors, type Harness } from './harness';
import { openLesson } from './lessonHelpers';

let h: Harness;
beforeAll(async () => {
  h = await openHarness({ isolationHeaders: true });
});
afterAll(() => h.close());

test('Stop ends a sweep: its finished points stay, its progress says k of n', async () => {
  const page = await openLesson(h, 'pipelines-and-bubbles', 'threads');
  const chart = page.locator('.model-chart-block');
  const progress = chart.getByTestId('plan-progress');
  const points = () => chart.locator('.dot[data-kind]').count();
  await chart.getByTestId('sweep').click();
  // The first points are measured on threads, over a second each: stop while one is running.
  await page.waitForSelector(
    '.model-chart-block [data-testid=plan-progress][data-state=running]:not([data-done="0"])',
    { timeout: 60_000 },
  );
  expect(await progress.textContent()).toMatch(/^run \d+ of \d+ · about .+ left · /);
  await chart.getByTestId('plan-stop').click();
  await expect.poll(() => progress.getAttribute('data-state')).toBe('stopped');
  const done = Number(await progress.getAttribute('data-done'));
  const total = Number(await progress.getAttribute('data-total'));
  expect(done).toBeGreaterThan(0);
  expect(done).toBeLessThan(total);
  expect(await progress.textContent()).toContain(`stopped after ${done} of ${total} runs`);
  expect(await points()).toBe(done);
  expect(await chart.getByTestId('plan-stop').count()).toBe(0);
  expect(await chart.getByTestId('sweep').isEnabled()).toBe(true);

  // A Run while the sweep goes on replaces it: the sweep says so and keeps its points.
  await chart.getByTestId('sweep').click();
  await expect.poll(() => progress.getAttribute('data-state')).toBe('running');
  await page.getByTestId('run').click();
  await expect.poll(() => progress.getAttribute('data-state')).toBe('stopped');
  expect(await progress.textContent()).toContain('replaced by “Run”');
  await expect
    .poll(() => page.getByTestId('experiment').getAttribute('data-run-state'))
    .toBe('running');
  expect(await points()).toBeGreaterThanOrEqual(done);
  expect(pageErrors(page)).toEqual([]);
});
