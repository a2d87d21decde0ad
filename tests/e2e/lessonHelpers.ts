// Steps the lesson e2e tests share: read a lesson file, open a lesson on an engine, run its
// experiment to the end, run one of its components (a button that starts runs and is enabled again
// when they are over), and count a chart's marks of one kind.
import { resolve } from 'node:path';
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { loadLessons, type Lesson } from '../../src/lessons/loadLessons';
import type { Harness } from './harness';

const root = resolve(__dirname, '../..');

/** The lesson as loaded from lessons/ (as the build loads it): for numbers a test derives from
 * the lesson file instead of repeating them. */
export function lessonFile(slug: string): Lesson {
  const lesson = loadLessons(resolve(root, 'lessons'), root).find((l) => l.slug === slug);
  if (!lesson) throw new Error(`no lesson ${slug} in lessons/`);
  return lesson;
}

/** Opens lesson `slug` (with a query such as `threads=5`) and waits until its experiment is idle
 * on `engine`; 'simulation' opens the page with ?isolation=off, as a host without the headers. */
export async function openLesson(
  h: Harness,
  slug: string,
  engine: 'threads' | 'simulation',
  query = '',
): Promise<Page> {
  const page = await h.page();
  const off = engine === 'simulation' ? '?isolation=off' : '';
  await page.goto(`${h.url}${off}#/lessons/${slug}${query ? `?${query}` : ''}`);
  await page.waitForSelector(`[data-testid=experiment][data-engine=${engine}][data-state=idle]`);
  return page;
}

/** Clicks Run and waits until the experiment says done. */
export async function runToDone(page: Page, timeout = 60_000): Promise<void> {
  await page.getByTestId('run').click();
  await page.waitForSelector('[data-testid=experiment][data-state=done]', { timeout });
}

/** Clicks a component's button and waits until its runs are over: `done` holds and the button is
 * enabled again (on the twin the runs may end before a disabled button is ever seen). */
export async function runComponent(
  page: Page,
  button: string,
  done: () => Promise<boolean> = async () => true,
  timeout = 90_000,
): Promise<void> {
  await page.getByTestId(button).click();
  await expect
    .poll(async () => (await done()) && (await page.getByTestId(button).isEnabled()), { timeout })
    .toBe(true);
}

/** A measurement block (`::measure{id=…}`, src/app/measure) by its id. */
export const block = (page: Page, id: string) =>
  page.locator(`[data-testid=measure-block][data-block=${id}]`);

/** Clicks a measurement block's button and waits until its plan is over (as runComponent). */
export async function runBlock(
  page: Page,
  id: string,
  done: () => Promise<boolean> = async () => true,
  timeout = 90_000,
): Promise<void> {
  const button = block(page, id).getByTestId('measure-run');
  await button.click();
  await expect
    .poll(
      async () =>
        (await done()) &&
        (await block(page, id).getByTestId('plan-progress').getAttribute('data-state')) ===
          'done' &&
        (await button.isEnabled()),
      { timeout },
    )
    .toBe(true);
}

/** How many marks (.dot) of `kind` a measurement block's charts have. */
export const blockMarks = (page: Page, id: string, kind: string) =>
  block(page, id).locator(`.dot[data-kind=${kind}]`).count();

/** A `done` for runComponent: the element with this test id is on the page. */
export const present = (page: Page, testId: string) => async () =>
  (await page.getByTestId(testId).count()) > 0;

/** How many marks (.dot) of `kind` (measured, simulated) the element with test id `within` has. */
export const marks = (page: Page, within: string, kind: string) =>
  page.getByTestId(within).locator(`.dot[data-kind=${kind}]`).count();
