// For talks and courses, in Chromium on the production build: presenter mode fits one screen at
// 1280×720 and 1920×1080 (a phone scrolls down at reading size instead) for every lesson, each step
// showing its section's views, and its keys work; an audience window mirrors the
// presenter, which then shows notes; embed mode runs the twin in a cross-origin iframe, says why,
// offers real threads in a tab, and reports its height; the papers page gathers every paper row.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { loadLessons } from '../../src/lessons/loadLessons';
import { serveStatic } from '../../scripts/lib/staticServer.mjs';
import { openHarness, pageErrors, type Harness } from './harness';
import { presenterSteps, stageViews } from '../../src/app/present/steps';
import { RACE_QUEUES } from '../../src/spec/raceConfig';

const root = resolve(__dirname, '../..');
const lessons = loadLessons(resolve(root, 'lessons'), root);

let h: Harness;
beforeAll(async () => {
  h = await openHarness({ isolationHeaders: true });
});
afterAll(() => h.close());

async function presenter(slug: string, width: number, height: number, query = ''): Promise<Page> {
  const page = await h.page();
  await page.setViewportSize({ width, height });
  await page.goto(`${h.url}#/present/${slug}${query}`);
  await page.waitForSelector('[data-testid=present] [data-testid=experiment]');
  return page;
}

/** Opens the presenter's audience window and waits until the presenter sees it connected. */
async function openAudience(presenterPage: Page): Promise<Page> {
  const [audience] = await Promise.all([
    h.context.waitForEvent('page'),
    presenterPage.getByTestId('open-audience').click(),
  ]);
  await audience.waitForSelector('[data-testid=present][data-audience=window]');
  await expect
    .poll(() => presenterPage.getByTestId('present').getAttribute('data-audience'))
    .toBe('connected');
  return audience;
}

/** Every part of the stage lies inside the viewport, and the page does not scroll. The stage
 * refits when a step's views change size (a ResizeObserver, a frame later), so this waits for it. */
async function expectOneScreen(page: Page, width: number, height: number) {
  await expect.poll(() => outsideTheScreen(page, width, height), { timeout: 5_000 }).toEqual([]);
}

/** What does not fit a width×height screen, named (empty when everything fits). */
function outsideTheScreen(page: Page, width: number, height: number): Promise<string[]> {
  return page.evaluate(
    ([w, h]) => {
      const problems: string[] = [];
      const root = document.documentElement;
      if (root.scrollHeight > h) problems.push(`page scrolls: ${root.scrollHeight} px high`);
      if (root.scrollWidth > w) problems.push(`page scrolls: ${root.scrollWidth} px wide`);
      const inside = (what: string, e: Element) => {
        const r = e.getBoundingClientRect();
        if (r.bottom > h + 1 || r.right > w + 1)
          problems.push(`${what} ends at ${r.right}, ${r.bottom}`);
      };
      // Issue 39: views are never shrunk below the slide's floor sizes; a step whose views do not
      // fit at them says so to the presenter and scrolls its views instead (presentSlides.test.ts).
      const cut =
        document.querySelector('.present-views[data-fits=false]') !== null &&
        document.querySelector('[data-testid=does-not-fit]') !== null;
      document
        .querySelectorAll(cut ? '.present-controls .slot' : '.present-stage .slot')
        .forEach((e) => inside('a stage slot', e));
      inside('the prose', document.querySelector('[data-testid=present-prose]')!);
      // Shrunk no more than it needs: below full size the prose fills its box's height, unless
      // something in it is wider than its lines (a long formula), which sets the scale instead.
      const proseBox = document.querySelector<HTMLElement>('.present-prose-box')!;
      const inner = proseBox.querySelector<HTMLElement>('.fit-box-content')!;
      const text = inner.getBoundingClientRect();
      const wide = inner.scrollWidth > inner.clientWidth + 1;
      if (Number(proseBox.dataset.scale) < 1 && !wide && text.height < 0.9 * proseBox.clientHeight)
        problems.push(
          `the prose at scale ${proseBox.dataset.scale} stands ${text.height} of ${proseBox.clientHeight} px`,
        );
      // The bar's buttons too (the page hides what overflows, so a clipped one leaves no scrollbar).
      document.querySelectorAll('.present-bar button').forEach((e) => inside('a bar button', e));
      // The stage has room to be read: half the screen's width at least (on a phone, before the
      // prose moved above it, it was left 54 px of 390), unless the screen's height is what
      // limits it (its scaled content as high as its box).
      const stageBox = document.querySelector<HTMLElement>('.fit-box.present-stage')!;
      const stage = stageBox.getBoundingClientRect();
      const content = stageBox.querySelector('.fit-box-content')!.getBoundingClientRect();
      const heightBound = content.height >= stageBox.clientHeight - 2;
      if (stage.width < w / 2 && !heightBound) problems.push(`the stage is ${stage.width} px wide`);
      // And no blank strip beside it: a stage its height limits gives the width it does not use
      // to the prose (at 1280×720 the prose had 400 px and a 210 px strip lay empty).
      if (stage.width > content.width + 2)
        problems.push(`the stage's box is ${stage.width} px wide, its content ${content.width} px`);
      // And the prose keeps the third of the row it is promised (18rem at least), even beside a
      // stage its width limits (a later `.fit-box { min-width: 0 }` once overrode the promise).
      const row = proseBox.parentElement!.clientWidth;
      const promised = Math.max(18 * 16, 0.32 * (row - 2 * 16));
      const prose = proseBox.getBoundingClientRect().width;
      if (prose < promised - 1) problems.push(`the prose is ${prose} px wide, under ${promised}`);
      return problems;
    },
    [width, height],
  );
}

/** On a phone the presenter flows and scrolls down: nothing is shrunk (both boxes at scale 1),
 * prose and control labels are at reading size, and nothing is wider than the screen (a wide view
 * scrolls sideways inside its own box). Names what is wrong; empty when all is well. */
function unreadableOnAPhone(page: Page, width: number): Promise<string[]> {
  return page.evaluate((w) => {
    const problems: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > w) problems.push(`page scrolls sideways: ${root.scrollWidth} px wide`);
    if (window.scrollY !== 0)
      problems.push(`the step opened scrolled down by ${window.scrollY} px`);
    document.querySelectorAll<HTMLElement>('.present .fit-box').forEach((b) => {
      if (b.dataset.scale !== '1.000') problems.push(`${b.className} scaled ${b.dataset.scale}`);
    });
    const px = (e: Element) => parseFloat(getComputedStyle(e).fontSize);
    const prose = document.querySelector('[data-testid=present-prose]')!;
    if (px(prose) < 16) problems.push(`prose at ${px(prose)} px`);
    document.querySelectorAll('.present .controls label').forEach((l) => {
      if (px(l) < 14) problems.push(`a control label at ${px(l)} px`);
    });
    // A chart wider than the screen says the rest of it is a swipe away; one that fits does not.
    document.querySelectorAll('.present svg[role=img]').forEach((svg) => {
      const box = svg.parentElement!;
      const hint = getComputedStyle(box, '::after').content.includes('swipe sideways');
      const width = Math.round(svg.getBoundingClientRect().width);
      if (width > w && !hint) problems.push(`a chart ${width} px wide, no hint`);
      if (box.scrollWidth <= box.clientWidth + 1 && hint)
        problems.push(`a chart ${width} px wide in a ${box.clientWidth} px box, with the hint`);
    });
    return problems;
  }, width);
}

/** Opens lesson `slug` in presenter mode and walks its steps with →: on each, the stage shows
 * the views the step's section places (or the lesson's main view and chart), then `check` runs. */
async function everyStep(
  slug: string,
  width: number,
  height: number,
  check: (page: Page) => Promise<void>,
) {
  const page = await presenter(slug, width, height);
  const lesson = lessons.find((l) => l.slug === slug)!;
  const steps = presenterSteps(lesson);
  expect(await page.getByTestId('present').getAttribute('data-steps')).toBe(String(steps.length));
  expect(steps.length).toBeGreaterThan(1);
  expect(await page.locator('.present-stage .slot').count()).toBeGreaterThanOrEqual(2);
  for (let s = 1; s <= steps.length; s++) {
    await expect.poll(() => page.getByTestId('present').getAttribute('data-step')).toBe(String(s));
    await check(page);
    expect(
      await page
        .locator('.present-stage .slot[data-component]')
        .evaluateAll((slots) => slots.map((e) => (e as HTMLElement).dataset.component)),
    ).toEqual(stageViews(lesson, steps[s - 1]));
    if (s === 1) await h.screenshot(page, `present-${slug}-${width}x${height}`);
    await page.keyboard.press('ArrowRight');
  }
  expect(pageErrors(page)).toEqual([]);
}

describe.each(lessons.map((l) => l.slug))('presenter mode: %s', (slug) => {
  // Both screens on one walk through the steps (the window resized at each step: the stage
  // refits on resize as on a step change), not a page load and a walk each.
  test('fits one 1280×720 and one 1920×1080 screen on every step', () =>
    everyStep(slug, 1280, 720, async (page) => {
      for (const [width, height] of [
        [1920, 1080],
        [1280, 720],
      ]) {
        await page.setViewportSize({ width, height });
        await expectOneScreen(page, width, height);
      }
    }));
  // A phone held upright, for a course page's link: scaled to one screen, the stage was a third
  // of its size (labels of 5 px), so there the steps scroll.
  test('on a 390×844 phone every step scrolls down at reading size, the bar at hand', () =>
    everyStep(slug, 390, 844, async (page) => {
      await expect.poll(() => unreadableOnAPhone(page, 390), { timeout: 5_000 }).toEqual([]);
      // Read to the end of the step: → is still on screen (and the next step opens at its top).
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      const next = (await page.getByRole('button', { name: 'next step' }).boundingBox())!;
      expect(next.y).toBeGreaterThanOrEqual(0);
      expect(next.y + next.height).toBeLessThanOrEqual(844);
    }));
});

// A 1280×800 screen zoomed to 200% is 640×400 CSS pixels.
test('on a page zoomed to 200% the key list lies over the bar and scrolls to its Close button', async () => {
  const page = await presenter(lessons[0].slug, 640, 400);
  await page.keyboard.press('?');
  const help = page.getByTestId('keys-help');
  await help.waitFor();
  // What is on top at the heading's middle is the list itself, not the presenter's bar.
  const heading = (await help.locator('h2').boundingBox())!;
  const onTop = await page.evaluate(
    ([x, y]) => document.elementFromPoint(x, y)?.closest('[data-testid=keys-help]') !== null,
    [heading.x + heading.width / 2, heading.y + heading.height / 2],
  );
  expect(onTop).toBe(true);
  const box = (await help.boundingBox())!;
  expect(box.y + box.height).toBeLessThanOrEqual(400);
  const close = help.getByRole('button', { name: 'Close (Esc)' });
  await close.scrollIntoViewIfNeeded();
  await close.click();
  await expect.poll(() => help.count()).toBe(0);
});

test('the keys: steps, run and pause, help, sweep, reset', async () => {
  // A long run (300 items at 50 ms on the slowest stage), so it cannot end between the keys
  // even on a loaded machine; each key may take a while to reach the engine's worker.
  const page = await presenter(lessons[0].slug, 1280, 720, '?extractUs=50000');
  const present = page.getByTestId('present');
  const panel = page.getByTestId('experiment');
  const runState = (want: string) =>
    expect.poll(() => panel.getAttribute('data-run-state'), { timeout: 15_000 }).toBe(want);
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => present.getAttribute('data-step')).toBe('2');
  expect(page.url()).toContain('step=2');
  expect(page.url()).toContain('extractUs=50000');
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => present.getAttribute('data-step')).toBe('1');
  // Step 1 shows the views the introduction places; the model chart (and its sweep) is step 2's.
  expect(await page.locator('.present-stage [data-component=model-chart]').count()).toBe(0);

  await page.keyboard.press(' ');
  await runState('running');
  await page.keyboard.press(' ');
  await runState('paused');
  await page.keyboard.press(' ');
  await runState('running');
  // No view of step 1 has a sweep: `s` says so, until the step changes.
  await page.keyboard.press('s');
  await expect.poll(() => page.getByTestId('no-sweep').isVisible()).toBe(true);

  await page.keyboard.press('?');
  await expect.poll(() => page.getByTestId('keys-help').isVisible()).toBe(true);
  expect(await page.getByTestId('keys-help').textContent()).toContain('run, pause, resume');
  await page.keyboard.press('Escape');
  await expect.poll(() => page.getByTestId('keys-help').count()).toBe(0);

  await page.keyboard.press('ArrowRight');
  await expect.poll(() => present.getAttribute('data-step')).toBe('2');
  expect(await page.getByTestId('no-sweep').count()).toBe(0);
  await page.keyboard.press('s');
  await expect.poll(() => page.getByTestId('sweep').isDisabled()).toBe(true);
  await page.keyboard.press('r');
  await expect.poll(() => page.getByTestId('sweep').isEnabled()).toBe(true);
  await expect.poll(() => panel.getAttribute('data-run-state')).not.toBe('running');
  expect(await page.locator('.model-chart-block .dot[data-kind]').count()).toBe(0);
  // The stopped run's numbers go too: the panel is as before the first run.
  await expect.poll(() => panel.getAttribute('data-state')).toBe('idle');
  expect(await page.getByTestId('completed').count()).toBe(0);
  expect(pageErrors(page)).toEqual([]);
});

test('the key list keeps Tab inside it and gives focus back on closing; space on a slider runs', async () => {
  const page = await presenter(lessons[0].slug, 1280, 720, '?extractUs=50000');
  const panel = page.getByTestId('experiment');
  const slider = page.locator('.present-stage input[type=range]').first();
  await slider.focus();
  await page.keyboard.press('?');
  const help = page.getByTestId('keys-help');
  await help.waitFor();
  const focusIn = (selector: string) =>
    page.evaluate((sel) => document.activeElement?.closest(sel) !== null, selector);
  // Before, Tab walked to the title link behind the list, and Enter there left the talk.
  for (let k = 0; k < 3; k++) await page.keyboard.press('Tab');
  expect(await focusIn('[data-testid=keys-help]')).toBe(true);
  await page.keyboard.press('Escape');
  await expect.poll(() => help.count()).toBe(0);
  expect(await page.evaluate(() => document.activeElement?.matches('input[type=range]'))).toBe(
    true,
  );
  // Space on the slider (which does nothing with space) runs, without tabbing away first.
  await page.keyboard.press(' ');
  await expect
    .poll(() => panel.getAttribute('data-run-state'), { timeout: 15_000 })
    .toBe('running');
  await page.keyboard.press('r');
  await expect.poll(() => panel.getAttribute('data-run-state')).not.toBe('running');
  expect(pageErrors(page)).toEqual([]);
});

test("`s` runs the sweep of the chart on the stage, not the model chart's; `r` stops it", async () => {
  // Lesson 3's layout chart sweeps both layouts with a button of its own.
  const page = await presenter('balancing-a-static-pipeline', 1280, 720, '?engine=simulation');
  const chart = page.locator('.present-stage [data-component=layout-chart]');
  for (let k = 0; k < 10 && (await chart.count()) === 0; k++) {
    const step = await page.getByTestId('present').getAttribute('data-step');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.getByTestId('present').getAttribute('data-step')).not.toBe(step);
  }
  const sweep = chart.getByTestId('sweep');
  const progress = chart.getByTestId('plan-progress');
  await page.keyboard.press('s');
  await expect.poll(() => progress.getAttribute('data-state')).toBe('running');
  await page.keyboard.press('r');
  await expect.poll(() => progress.getAttribute('data-state')).toBe('stopped');
  await expect.poll(() => sweep.isEnabled()).toBe(true);
  expect(pageErrors(page)).toEqual([]);
});

test('keys typed into a control belong to it; every control is reachable by Tab with a visible focus', async () => {
  const page = await presenter(lessons[0].slug, 1280, 720);
  const slider = page.locator('.present-stage input[type=range]').first();
  await slider.focus();
  const before = await slider.inputValue();
  await page.keyboard.press('ArrowRight');
  expect(await slider.inputValue()).not.toBe(before);
  expect(await page.getByTestId('present').getAttribute('data-step')).toBe('1');
  // Tab reaches the controls and buttons; the focused one is outlined.
  await page.locator('body').click({ position: { x: 5, y: 700 } });
  const seen = new Set<string>();
  for (let i = 0; i < 25; i++) {
    await page.keyboard.press('Tab');
    const focus = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      return {
        what: `${el.tagName}:${el.getAttribute('data-testid') ?? el.textContent?.trim().slice(0, 20)}`,
        outline: getComputedStyle(el).outlineStyle,
      };
    });
    if (focus.what.startsWith('BODY')) continue; // past the last control, focus leaves the page
    seen.add(focus.what);
    expect(focus.outline, focus.what).not.toBe('none');
  }
  expect([...seen].some((w) => w.startsWith('BUTTON:run'))).toBe(true);
  expect([...seen].some((w) => w.startsWith('INPUT'))).toBe(true);
});

test("stepping to a step that sets controls (::stage … ?id=v) sets them; opening that step's URL keeps its values", async () => {
  const lesson = lessons.find((l) => l.slug === 'balancing-a-static-pipeline')!;
  const steps = presenterSteps(lesson);
  const at = steps.findIndex((s) => s.settings?.layout === 'dedup5') + 1;
  expect(at).toBeGreaterThan(1);
  const page = await presenter(lesson.slug, 1280, 720, `?step=${at - 1}`);
  const layout = page.locator('[data-testid=experiment] input[type=radio]:checked');
  expect(await layout.getAttribute('value')).toBe('6');
  // An audience window follows with every value the step sets, not only the last.
  const audience = await openAudience(page);
  await page.locator('.notes-text').click();
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => page.getByTestId('present').getAttribute('data-step')).toBe(String(at));
  await expect.poll(() => page.url()).toContain('queue=unbounded');
  expect(page.url()).toContain('layout=dedup5');
  await expect
    .poll(() => audience.getByTestId('present').getAttribute('data-step'))
    .toBe(String(at));
  const audienceLayout = audience.locator('[data-testid=experiment] input[type=radio]:checked');
  await expect.poll(() => audienceLayout.getAttribute('value')).toBe('dedup5');
  expect(
    await audience.locator('[data-testid=experiment] [data-control=queue-unbounded]').isChecked(),
  ).toBe(true);
  await audience.close();
  await expect
    .poll(() => page.getByTestId('present').getAttribute('data-audience'), { timeout: 10_000 })
    .toBe('none');
  await expect.poll(() => layout.getAttribute('value')).toBe('dedup5');
  // Back a step: the values stay (that step sets none).
  await page.keyboard.press('ArrowLeft');
  await expect
    .poll(() => page.getByTestId('present').getAttribute('data-step'))
    .toBe(String(at - 1));
  expect(await layout.getAttribute('value')).toBe('dedup5');
  // A permalink to the step shows the values it names, not the step's settings.
  const link = await presenter(lesson.slug, 1280, 720, `?step=${at}&layout=3`);
  expect(
    await link.locator('[data-testid=experiment] input[type=radio]:checked').getAttribute('value'),
  ).toBe('3');
  expect(pageErrors(page)).toEqual([]);
  expect(pageErrors(link)).toEqual([]);
});

test('a race goes on while the presenter steps to another race view and back, and stops cleanly when no step shows one', async () => {
  const page = await presenter('queues-and-cache-lines', 1280, 720, '?step=2');
  const present = page.getByTestId('present');
  const step = async (key: string, want: number) => {
    await page.keyboard.press(key);
    await expect.poll(() => present.getAttribute('data-step')).toBe(String(want));
  };
  const racing = () => page.locator('[data-testid=queue-race] [data-testid=plan-stop]').count();
  await page.getByTestId('race-run').click();
  await expect.poll(racing).toBe(1);
  // Step 3 (the fences table) shares the race: the race carries on and ends on its own.
  await step('ArrowRight', 3);
  await step('ArrowLeft', 2);
  await expect.poll(racing, { timeout: 120_000 }).toBe(0);
  const bars = page.locator('[data-testid=race-bar][data-source=visitor]');
  expect(
    await bars.evaluateAll(
      (els) => els.filter((e) => Number(e.getAttribute('data-items-per-s')) > 0).length,
    ),
  ).toBe(RACE_QUEUES.length);
  // Step 4 has no race view: the race in flight stops, and says so when its step comes back.
  await page.getByTestId('race-run').click();
  await expect.poll(racing).toBe(1);
  await step('ArrowRight', 3);
  await step('ArrowRight', 4);
  await step('ArrowLeft', 3);
  await step('ArrowLeft', 2);
  expect(await racing()).toBe(0);
  expect(await page.getByTestId('race-run').textContent()).toBe('Race the queues');
  expect(pageErrors(page)).toEqual([]);
});

test('an audience window mirrors the presenter, which shows notes and the audience run', async () => {
  const presenterPage = await presenter(lessons[0].slug, 1280, 720);
  const audience = await openAudience(presenterPage);
  await expect.poll(() => presenterPage.getByTestId('present-notes').count()).toBe(1);
  // Focus off the button that opened the window (space would press it again).
  await presenterPage.locator('.notes-text').click();
  // Step 1 shows no sweep: the audience window has nothing to run, and the presenter is told.
  await presenterPage.keyboard.press('s');
  await expect.poll(() => presenterPage.getByTestId('no-sweep').isVisible()).toBe(true);
  await presenterPage.keyboard.press('ArrowRight');
  await expect.poll(() => presenterPage.getByTestId('no-sweep').count()).toBe(0);
  await expect.poll(() => audience.getByTestId('present').getAttribute('data-step')).toBe('2');
  await presenterPage.keyboard.press(' ');
  await expect
    .poll(() => audience.getByTestId('experiment').getAttribute('data-run-state'))
    .toBe('running');
  await expect
    .poll(() => presenterPage.getByTestId('audience-status').textContent())
    .toMatch(/Audience window: running/);
  await h.screenshot(presenterPage, 'present-notes');
  // Long notes scroll on their own: the audience's status and the controls stay in sight.
  await presenterPage.setViewportSize({ width: 1280, height: 360 });
  await presenterPage.locator('.notes-text').hover();
  await presenterPage.mouse.wheel(0, 5000);
  await expect
    .poll(() => presenterPage.locator('.notes-text').evaluate((e) => e.scrollTop))
    .toBeGreaterThan(0);
  const status = (await presenterPage.getByTestId('audience-status').boundingBox())!;
  expect(status.y).toBeGreaterThanOrEqual(0);
  expect(status.y + status.height).toBeLessThanOrEqual(360);
  await audience.close();
  await expect
    .poll(() => presenterPage.getByTestId('present').getAttribute('data-audience'), {
      timeout: 10_000,
    })
    .toBe('none');
});

test('the papers page lists every paper row of every lesson', async () => {
  const page = await h.page();
  await page.goto(`${h.url}#/papers`);
  await page.waitForSelector('[data-testid=papers-page]');
  expect(await page.locator('section[data-paper]').count()).toBe(5);
  // Rows at the paper's scale: the twin's (simulated) or, for a figure the paper computed with
  // its model, the models' alone (model).
  const twinRows = lessons.flatMap((l) => l.paper.filter((r) => r.twinValue !== null));
  for (const kind of ['simulated', 'model'] as const)
    expect(await page.locator(`[data-testid=paper-claim][data-kind=${kind}]`).count()).toBe(
      twinRows.filter((r) => r.twinKind === kind).length,
    );
  for (const row of await page.locator('[data-testid=paper-claim]').all()) {
    expect(Number.isFinite(Number(await row.getAttribute('data-paper-value')))).toBe(true);
    expect(Number.isFinite(Number(await row.getAttribute('data-ours-value')))).toBe(true);
  }
  expect(pageErrors(page)).toEqual([]);
});

describe('embedded in a cross-origin iframe', () => {
  let parentDir: string;
  let parent: { url: string; close: () => Promise<void> };
  beforeAll(async () => {
    parentDir = mkdtempSync(join(tmpdir(), 'pipelab-course-'));
    parent = await serveStatic({ root: parentDir, isolationHeaders: false });
  });
  afterAll(async () => {
    await parent.close();
    rmSync(parentDir, { recursive: true, force: true });
  });

  test('runs the twin, says why, offers real threads in a tab, and reports its height', async () => {
    // The course page lives on another origin (localhost vs 127.0.0.1) than PipeLab.
    const lessonUrl = `${h.url}#/lessons/${lessons[0].slug}?embed=1`;
    writeFileSync(
      join(parentDir, 'course.html'),
      `<!doctype html><meta charset="utf-8"><title>Course</title>
       <script>window.heights = []; addEventListener('message', (e) => {
         if (e.data && e.data.type === 'pipelab:height') { window.heights.push(e.data.height);
           document.querySelector('iframe').style.height = e.data.height + 'px'; } });</script>
       <h1>Week 3: pipelines</h1>
       <iframe src="${lessonUrl}" style="width: 1000px; height: 400px; border: 0"></iframe>`,
    );
    const page = await h.page();
    await page.goto(parent.url.replace('127.0.0.1', 'localhost') + 'course.html');
    const frame = page.frameLocator('iframe');
    await frame.locator('[data-testid=experiment][data-engine=simulation]').waitFor();
    expect(await frame.locator('header.top').count()).toBe(0);
    expect(await frame.getByTestId('embed-bar').textContent()).toContain(
      'not cross-origin isolated',
    );
    expect(await frame.getByTestId('embed-bar').textContent()).toContain(
      'A frame can be isolated only inside a page that is isolated too. So this frame runs',
    );
    const link = frame.getByTestId('open-with-threads');
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('href')).not.toContain('embed=1');
    expect(await link.getAttribute('href')).toContain(`#/lessons/${lessons[0].slug}`);
    await frame.getByTestId('run').click();
    await frame.locator('[data-testid=experiment][data-state=done]').waitFor({ timeout: 60_000 });
    expect(await frame.getByTestId('throughput').getAttribute('data-kind')).toBe('simulated');
    // A control change keeps the page embedded.
    await frame.locator('input[type=range]').first().press('ArrowRight');
    await expect
      .poll(
        () =>
          page
            .frames()
            .find((f) => f !== page.mainFrame())
            ?.url() ?? '',
      )
      .toMatch(/embed=1/);
    expect(await frame.locator('header.top').count()).toBe(0);
    // The way out carries the controls as they are now, and the breadcrumb stays embedded.
    const moved = await frame.locator('input[type=range]').first().getAttribute('data-control');
    const value = await frame.locator('input[type=range]').first().inputValue();
    await link.hover();
    expect(await link.getAttribute('href')).toContain(`${moved}=${value}`);
    expect(await frame.locator('.crumbs a').first().getAttribute('href')).toBe('#/?embed=1');
    const heights = () => page.evaluate(() => (window as unknown as { heights: number[] }).heights);
    await expect.poll(async () => (await heights()).length).toBeGreaterThan(0);
    expect(Math.max(...(await heights()))).toBeGreaterThan(1000);
    await h.screenshot(page, 'embed-course-page');
    // A frame on another site may be refused a service worker: that leaves no uncaught error.
    // (Console errors are not checked: the course page's own server has no favicon.)
    expect(pageErrors(page)).toEqual([]);
  });
  test('an embed link opened on its own says "this page", not "this frame", and runs on threads', async () => {
    const page = await h.page();
    await page.goto(`${h.url}#/lessons/${lessons[0].slug}?embed=1`);
    await page.waitForSelector('[data-testid=experiment][data-engine=threads]');
    expect(await page.getByTestId('embed-bar').textContent()).toBe(
      'Running on real threads in this page. Open with the site around it ↗',
    );
  });
});
