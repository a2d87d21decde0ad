// Lesson 6 "Streams with phasers" in real Chromium, on real threads and on the simulation: the
// stream graph and task lanes fill during a run, the sieve grows a task per prime (its primes
// counted against a sequential sieve), the thread ring completes with batching requested, a ring
// batched without cycle detection stalls and the page says so, and the batch chart's measured
// ratios reach the paper rows.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { openHarness, pageErrors, type Harness } from './harness';
import { block, lessonFile, openLesson, runBlock, runToDone } from './lessonHelpers';

const SLUG = 'streams-with-phasers';
/** The batch sizes the lesson's batching block runs. */
const BATCHES = lessonFile(SLUG).measure.find((b) => b.id === 'batching')!.values;

/** Primes up to n by a sequential sieve. */
function primesUpTo(n: number): number {
  const composite = new Uint8Array(n + 1);
  let count = 0;
  for (let i = 2; i <= n; i++) {
    if (composite[i]) continue;
    count++;
    for (let j = i * i; j <= n; j += i) composite[j] = 1;
  }
  return count;
}

const graph = (page: Page) => page.getByTestId('stream-graph');
const tasksNow = async (page: Page) => Number(await graph(page).getAttribute('data-tasks'));

describe.each([
  { engine: 'threads' as const, isolationHeaders: true, kind: 'measured' },
  { engine: 'simulation' as const, isolationHeaders: false, kind: 'simulated' },
])('on $engine', ({ engine, isolationHeaders, kind }) => {
  let h: Harness;
  beforeAll(async () => {
    h = await openHarness({ isolationHeaders });
  });
  afterAll(() => h.close());

  test('the sieve grows a task per prime, live, and ends with every task done', async () => {
    const page = await openLesson(h, SLUG, engine, 'graph=sieve');
    // Before a run: the tasks the spec starts with (numbers, the first filter, primes).
    expect(await tasksNow(page)).toBe(3);
    await page.getByTestId('run').click();
    // Tasks appear while the run is going, not only at its end.
    await expect.poll(() => tasksNow(page), { timeout: 30_000 }).toBeGreaterThan(5);
    await page.waitForSelector('[data-testid=experiment][data-state=done]', { timeout: 60_000 });
    // numbers and primes, one filter per prime up to 2000, and the last filter that found none.
    expect(await tasksNow(page)).toBe(2 + primesUpTo(2000) + 1);
    const states = await page.$$eval('[data-testid=task-node]', (ns) =>
      ns.map((n) => n.getAttribute('data-state')),
    );
    expect(states.length).toBeGreaterThan(0);
    expect(states.every((s) => s === 'done')).toBe(true);
    expect(await page.getByTestId('throughput').getAttribute('data-kind')).toBe(kind);
    expect(await page.getByTestId('task-timeline').locator('[data-testid=lane]').count()).toBe(12);
    await h.screenshot(page, `lesson-${SLUG}-sieve-${engine}`);
    expect(pageErrors(page)).toEqual([]);
  });

  test('the thread ring completes with batch 4096 requested: its streams are cyclic, not batched', async () => {
    const page = await openLesson(h, SLUG, engine, 'graph=ring&batch=4096');
    await runToDone(page);
    const [done, items] = (await page.getByTestId('completed').textContent())!
      .split('/')
      .map(Number);
    expect(done).toBe(items);
    const cyclic = await page.$$eval('[data-testid=stream-buffer]', (bs) =>
      bs.map((b) => b.getAttribute('data-cyclic')),
    );
    expect(cyclic).toHaveLength(8);
    expect(cyclic.every((c) => c === 'true')).toBe(true);
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(pageErrors(page)).toEqual([]);
  });

  test('a ring batched without cycle detection stalls: the page says so and the run stops', async () => {
    const page = await openLesson(h, SLUG, engine, 'graph=ring&batch=64&batching=always');
    await page.getByTestId('run').click();
    await expect
      .poll(() => page.getByRole('alert').first().textContent(), { timeout: 30_000 })
      .toContain('stalled');
    // A stalled run is an error run: stopped, its threads gone, the message on the page.
    await page.waitForSelector('[data-testid=experiment][data-state=error]', { timeout: 30_000 });
    expect(await graph(page).getAttribute('data-stalled')).toBe('true');
    // The page is still usable: with cycle detection back on, the same ring runs to the end.
    await page.locator('[data-control=batching] input[value=adaptive]').first().check();
    await runToDone(page);
    expect(pageErrors(page)).toEqual([]);
  });
});

describe('the batch chart without real threads', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await openHarness({ isolationHeaders: false });
  });
  afterAll(() => h.close());

  // Without real threads the chart simulates every point (the measured path: below).
  test('simulates push/pop and the ring per batch: batching pays on push/pop, not on the ring', async () => {
    const page = await openLesson(h, SLUG, 'simulation');
    await runBlock(page, 'batching', undefined, 170_000);
    const chart = block(page, 'batching');
    const ys = (series: string) =>
      chart
        .locator(`[data-series=${series}] .dot[data-kind=simulated]`)
        .evaluateAll((ds) =>
          ds.map(
            (d) =>
              [Number(d.getAttribute('data-x')), Number(d.getAttribute('data-y'))] as [
                number,
                number,
              ],
          ),
        );
    const pushPop = new Map(await ys('push-pop'));
    const ring = new Map(await ys('ring'));
    expect(pushPop.size).toBe(BATCHES.length);
    expect(ring.size).toBe(BATCHES.length);
    expect(pushPop.get(4096)!).toBeGreaterThan(10 * pushPop.get(1)!);
    expect(ring.get(4096)!).toBeLessThan(1.05 * ring.get(1)!);
    expect(await chart.locator('.dot[data-kind=measured]').count()).toBe(0);
    await h.screenshot(page, `lesson-${SLUG}-batch-chart-simulated`);
    expect(pageErrors(page)).toEqual([]);
  });
});

describe('the batch chart on real threads', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await openHarness({ isolationHeaders: true });
  });
  afterAll(() => h.close());

  // Each measured point's runs are sized from a short trial run on the same threads
  // (src/engine/sweep.ts trialRate), so the whole chart takes seconds whatever the load: the
  // measured path is covered here, with no assertion on any time or rate.
  test('measures push/pop and the ring per batch, and the measured ratios reach the paper rows', async () => {
    const page = await openLesson(h, SLUG, 'threads');
    const chart = block(page, 'batching');
    await runBlock(
      page,
      'batching',
      async () => (await chart.locator('.dot[data-kind=measured]').count()) === 2 * BATCHES.length,
      300_000,
    );
    for (const row of ['push-pop-batching', 'thread-ring-hop']) {
      const ours = page.locator(`[data-testid=paper-claim][data-row=${row}][data-kind=measured]`);
      await expect.poll(() => ours.count()).toBeGreaterThan(0);
      const value = Number(await ours.first().getAttribute('data-ours-value'));
      expect(Number.isFinite(value) && value > 0).toBe(true);
    }
    await expect.poll(() => chart.textContent()).toContain('Measured here');
    expect(pageErrors(page)).toEqual([]);
  });
});

describe('a replayed phaser run', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await openHarness({ isolationHeaders: true });
  });
  afterAll(() => h.close());

  // The replay writes the board recorded at its clock (src/replay/replayRun.ts): at its start the
  // sieve has few tasks, at its end every one the live run spawned — not the starting graph.
  test('a recorded sieve grows its tasks again in the replay', async () => {
    const page = await openLesson(h, SLUG, 'threads', 'graph=sieve');
    await page.getByTestId('record').click();
    await page.waitForSelector('[data-testid=record-panel][data-state=ready]', { timeout: 90_000 });
    const live = await tasksNow(page);
    expect(live).toBeGreaterThan(3);
    await page.getByTestId('replay').click();
    await page.waitForSelector('[data-testid=replay-bar]');
    await page.getByTestId('replay-pause').click();
    const bar = page.getByTestId('replay-bar');
    await expect.poll(() => bar.getAttribute('data-state'), { timeout: 15_000 }).toBe('paused');
    // The scrubber by keyboard, as a visitor moves it: Home, then End, each awaited until the
    // replay's position says it moved. Home once sought to 0 and straight back (React restored
    // the scrubber's old value after the 'input' event, and the 'change' event sought there;
    // ReplayBar.tsx), and the test then looked for the end's board at 0.12 s (15 of 306 tasks).
    const scrubber = page.getByTestId('replay-scrubber');
    await scrubber.focus();
    const position = () => page.getByTestId('replay-position').textContent();
    await page.keyboard.press('Home');
    await expect.poll(position, { timeout: 15_000 }).toMatch(/ · event 0 of /);
    // A seek folds the recording again (~240,000 events here) and redraws the graph: more than
    // expect.poll's default second on a loaded machine (a full npm test saw the old board then).
    await expect.poll(() => tasksNow(page), { timeout: 15_000 }).toBeLessThan(live);
    await page.keyboard.press('End');
    await expect.poll(position, { timeout: 15_000 }).toMatch(/ · event ([\d,]+) of \1 /);
    // The whole run was kept: a recording cut at its event cap ends before the last tasks spawned.
    expect(await page.getByTestId('replay-label').textContent()).not.toContain('Cut at its cap');
    await expect.poll(() => tasksNow(page), { timeout: 15_000 }).toBe(live);
    await h.screenshot(page, `lesson-${SLUG}-sieve-replayed`);
    expect(pageErrors(page)).toEqual([]);
  });
});
