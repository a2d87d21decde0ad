// A declared measurement block (::measure{id=…}, src/app/measure) on a real page: its runs are a
// plan on the page's planner with progress (run k of n) and Stop; a stopped block keeps the points
// it finished, each saying where it came from, and says it stopped. Real threads, lesson 4's
// batch sizes (each run a second or so).
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openHarness, pageErrors, type Harness } from './harness';
import { block, lessonFile, openLesson } from './lessonHelpers';

const SLUG = 'ends-of-the-pipeline';
const sizes = lessonFile(SLUG).measure.find((b) => b.id === 'batch-sizes')!.values;

let h: Harness;
beforeAll(async () => {
  h = await openHarness({ isolationHeaders: true });
});
afterAll(() => h.close());

test('Stop ends a block’s plan: its finished points stay, its progress says k of n', async () => {
  const page = await openLesson(h, SLUG, 'threads');
  const b = block(page, 'batch-sizes');
  await b.getByTestId('measure-run').click();
  const progress = b.getByTestId('plan-progress');
  // One measured and one twin run per batch size.
  await expect.poll(() => progress.getAttribute('data-total')).toBe(String(2 * sizes.length));
  await expect
    .poll(async () => Number(await progress.getAttribute('data-done')), { timeout: 60_000 })
    .toBeGreaterThanOrEqual(2);
  await b.getByTestId('plan-stop').click();
  await expect.poll(() => progress.getAttribute('data-state'), { timeout: 30_000 }).toBe('stopped');
  const done = Number(await progress.getAttribute('data-done'));
  expect(done).toBeLessThan(2 * sizes.length);
  expect(await progress.textContent()).toContain('kept');
  // Each finished run drew its throughput and (when its first item was seen) its first-out.
  const dots = await b.locator('.dot[data-kind]').count();
  expect(dots).toBeGreaterThanOrEqual(done);
  expect(dots).toBeLessThanOrEqual(2 * done);
  expect(await b.locator('.dot[data-kind=measured]').count()).toBeGreaterThan(0);
  expect(await b.getByTestId('measure-run').isEnabled()).toBe(true);
  expect(pageErrors(page)).toEqual([]);
});
