// "Done" means final, on every engine (issue 43): once a panel says its run is done, every thread
// of it has been joined — the engine worker's own end message ('stopped', 'pipeline-finished',
// 'race-done') came before — and nothing it shows changes any more: no count, item, event or
// bar, over a wait long enough for a late thread (a second and at least ten frames drawn). The
// counting page, a pipeline on real threads and on the twin, the barrier runtime, phasers and
// the queue race are each stopped mid-run (where the counting page once said done while its
// threads still counted); a pipeline also runs to its end, and a replay plays to its end.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { openHarness, pageErrors, QUICK_RUN, threadCounts, type Harness } from './harness';
import { openLesson } from './lessonHelpers';

/** How long nothing may change after done, at the least (and at least LATE_FRAMES frames). */
const LATE_MS = 1000;
const LATE_FRAMES = 10;

/** Engine worker messages that say a run's threads are all joined. */
const END_MESSAGES = ['stopped', 'pipeline-finished', 'race-done'];

interface DoneWatch {
  /** performance.now() when the panel turned done, and what it showed then. */
  doneAt: number | null;
  shownAtDone: string | null;
  /** performance.now() of each end message the engine workers posted. */
  endsAt: number[];
  framesSinceDone: number;
}

/** Before the page loads: every engine worker's end messages are timed as the page receives
 * them (the page's own handler runs after this listener, in the same task). */
async function timeEngineEnds(page: Page): Promise<void> {
  await page.addInitScript((ends: string[]) => {
    const w = window as unknown as { __ends: number[]; Worker: typeof Worker };
    w.__ends = [];
    const Base = w.Worker;
    w.Worker = class extends Base {
      constructor(url: string | URL, options?: WorkerOptions) {
        super(url, options);
        this.addEventListener('message', (e: MessageEvent<{ type?: string }>) => {
          if (ends.includes(e.data?.type ?? '')) w.__ends.push(performance.now());
        });
      }
    };
  }, END_MESSAGES);
}

/**
 * From now on: when the element `panel` matches `doneSelector` (checked at every DOM change) and
 * its attributes `equal` hold one value, what the `shown` elements hold is kept — their markup with
 * every attribute — as it was in the very commit that said done, not as a later read finds it.
 */
async function watchDone(
  page: Page,
  panel: string,
  doneSelector: string,
  shown: string[],
  equal: string[] = [],
) {
  await page.evaluate(
    ({ panel, doneSelector, shown, equal }) => {
      const w = window as unknown as { __done: DoneWatch; __ends?: number[] };
      const markup = (n: Node): string =>
        n instanceof Element
          ? `<${n.tagName} ${[...n.attributes]
              .map((a) => `${a.name}=${a.value}`)
              .sort()
              .join(' ')}>${[...n.childNodes].map(markup).join('')}</>`
          : (n.textContent ?? '');
      const read = () =>
        shown.map((s) => [...document.querySelectorAll(s)].map(markup).join('')).join('\n');
      const watch: DoneWatch = { doneAt: null, shownAtDone: null, endsAt: [], framesSinceDone: 0 };
      w.__done = watch;
      const isDone = () => {
        const el = document.querySelector(panel);
        return (
          !!el?.matches(doneSelector) && new Set(equal.map((a) => el.getAttribute(a))).size <= 1
        );
      };
      const check = () => {
        if (watch.doneAt !== null || !isDone()) return;
        watch.doneAt = performance.now();
        watch.shownAtDone = read();
        watch.endsAt = [...(w.__ends ?? [])];
        const frame = () => {
          watch.framesSinceDone++;
          requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
        observer.disconnect();
      };
      const observer = new MutationObserver(check);
      observer.observe(document.body, {
        subtree: true,
        childList: true,
        attributes: true,
        characterData: true,
      });
      (window as unknown as { __readShown: () => string }).__readShown = read;
    },
    { panel, doneSelector, shown, equal },
  );
}

/** Waits for done, then holds: the engine's end message came first (when `engineEnds`), and
 * after LATE_MS and LATE_FRAMES the `shown` elements are exactly as they were at done. */
async function expectFinalOnceDone(page: Page, engineEnds: boolean, timeout = 60_000) {
  const watch = () =>
    page.evaluate(() => (window as unknown as { __done: DoneWatch }).__done) as Promise<DoneWatch>;
  await expect.poll(async () => (await watch()).doneAt !== null, { timeout }).toBe(true);
  const atDone = await watch();
  if (engineEnds) {
    // Every thread joined before the page said done.
    expect(atDone.endsAt.length).toBeGreaterThan(0);
    expect(atDone.endsAt.at(-1)!).toBeLessThanOrEqual(atDone.doneAt!);
  }
  await page.waitForTimeout(LATE_MS);
  await expect
    .poll(async () => (await watch()).framesSinceDone, { timeout: 20_000 })
    .toBeGreaterThanOrEqual(LATE_FRAMES);
  const now = await page.evaluate(() =>
    (window as unknown as { __readShown: () => string }).__readShown(),
  );
  expect(firstChange(atDone.shownAtDone!, now)).toBeNull();
  expect(pageErrors(page)).toEqual([]);
}

/** Where `after` first differs from `before`: a little of each around it, or null. */
function firstChange(before: string, after: string): { before: string; after: string } | null {
  let i = 0;
  while (i < before.length && before[i] === after[i]) i++;
  if (i === before.length && i === after.length) return null;
  const around = (s: string) => s.slice(Math.max(0, i - 300), i + 200);
  return { before: around(before), after: around(after) };
}

const PANEL = '[data-testid=experiment]';
const DONE = '[data-state=done]';
/** A lesson page: the panel, every view drawn from the run, the charts, the paper rows. */
const LESSON_SHOWN = ['main'];

/** Opens `path` (a route, with its query) on a page that times the engines' end messages. */
async function openTimed(h: Harness, path: string): Promise<Page> {
  const page = await h.page();
  await timeEngineEnds(page);
  await page.goto(`${h.url}${path}`);
  return page;
}

/** Runs the lesson's experiment until `progressed` holds, then stops it and checks done is final. */
async function stopMidRun(page: Page, engineEnds: boolean, progressed: () => Promise<boolean>) {
  await page.getByTestId('run').click();
  await expect.poll(progressed, { timeout: 30_000 }).toBe(true);
  await watchDone(page, PANEL, DONE, LESSON_SHOWN);
  await page.getByTestId('stop').click();
  await expectFinalOnceDone(page, engineEnds);
}

/** Items out so far, from the panel's "Items out" (or "Intervals done"). */
const completedNow = async (page: Page) =>
  Number(((await page.getByTestId('completed').textContent()) ?? '0').split('/')[0]);
const outSoFar = (page: Page, atLeast: number) => async () =>
  (await page.getByTestId('completed').count()) > 0 && (await completedNow(page)) >= atLeast;

describe('real threads', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await openHarness({ isolationHeaders: true });
  });
  afterAll(() => h.close());

  test('counting threads: stopped, done only after the joins, the counts final', async () => {
    const page = await openTimed(h, '#/threads?threads=2&layout=packed');
    await page.waitForSelector(`${PANEL}[data-engine=threads][data-state=idle]`);
    await page.getByTestId('start').click();
    await expect
      .poll(async () => (await threadCounts(page)).every((c) => c > 0), { timeout: 20_000 })
      .toBe(true);
    await watchDone(page, PANEL, DONE, [PANEL]);
    await page.getByTestId('stop').click();
    await expectFinalOnceDone(page, true);
  });

  test('a pipeline: stopped mid-run, then run to its end; each done is final', async () => {
    const slug = 'pipelines-and-bubbles';
    const page = await openTimed(h, `#/lessons/${slug}${QUICK_RUN[slug]}`);
    await page.waitForSelector(`${PANEL}[data-engine=threads][data-state=idle]`);
    await stopMidRun(page, true, outSoFar(page, 5));
    expect(await completedNow(page)).toBeLessThan(300);
    await page.getByTestId('run').click();
    await page.waitForSelector(`${PANEL}[data-state=running]`);
    await watchDone(page, PANEL, DONE, LESSON_SHOWN);
    await expectFinalOnceDone(page, true);
    expect(await completedNow(page)).toBe(300);
  });

  test('the barrier runtime (thread packing): stopped mid-run, done is final', async () => {
    const page = await openTimed(h, '#/lessons/thread-packing');
    await page.waitForSelector(`${PANEL}[data-engine=threads][data-state=idle]`);
    await stopMidRun(page, true, outSoFar(page, 2));
  });

  test('phasers (the sieve): stopped while it grows tasks, done is final', async () => {
    const page = await openTimed(h, '#/lessons/streams-with-phasers?graph=sieve');
    await page.waitForSelector(`${PANEL}[data-engine=threads][data-state=idle]`);
    await stopMidRun(page, true, async () => {
      const tasks = await page.getByTestId('stream-graph').getAttribute('data-tasks');
      return Number(tasks) > 5;
    });
  });

  test('the queue race: stopped after its first result, done is final', async () => {
    const page = await openTimed(h, '#/lessons/queues-and-cache-lines');
    const race = '[data-testid=queue-race]';
    await page.getByTestId('race-run').click();
    await expect
      .poll(
        async () =>
          Number(
            await page.locator(`${race} [data-testid=plan-progress]`).getAttribute('data-done'),
          ),
        { timeout: 60_000 },
      )
      .toBeGreaterThan(0);
    await watchDone(page, race, DONE, [race, '[data-testid=paper-claim]']);
    await page.locator(`${race} [data-testid=plan-stop]`).click();
    await expectFinalOnceDone(page, true);
  });
});

describe('the twin (not cross-origin isolated)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await openHarness({ isolationHeaders: false });
  });
  afterAll(() => h.close());

  test('a pipeline on the twin: stopped mid-run, done is final', async () => {
    const page = await openLesson(h, 'pipelines-and-bubbles', 'simulation');
    await stopMidRun(page, false, outSoFar(page, 5));
  });

  test('a replay played to its end holds there: nothing moves once it is over', async () => {
    const slug = 'pipelines-and-bubbles';
    const page = await openLesson(h, slug, 'simulation', QUICK_RUN[slug].slice(1));
    await page.getByTestId('record').click();
    await page.waitForSelector('[data-testid=record-panel][data-state=ready]', {
      timeout: 60_000,
    });
    await page.getByTestId('replay').click();
    const bar = '[data-testid=replay-bar]';
    await page.waitForSelector(bar);
    // Back to its start, paused (a seek pauses): a short replay may have played to its end
    // already, and Play from the end would start it over.
    await expect
      .poll(async () => {
        await page.getByTestId('replay-scrubber').press('Home');
        return page.locator(`${bar}[data-state=paused][data-clock-us="0"]`).count();
      })
      .toBe(1);
    // Over: paused with every recorded event handed over.
    await watchDone(page, bar, '[data-state=paused]', ['body'], ['data-cursor', 'data-events']);
    await page.getByTestId('replay-speed').selectOption('4');
    await page.getByTestId('replay-play').click();
    await expectFinalOnceDone(page, false);
  });
});
