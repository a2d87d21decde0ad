// Lesson 6 "Streams with phasers" in real Chromium, on real threads and on the simulation: the
// stream graph and task lanes fill during a run, the sieve grows a task per prime (its primes
// counted against a sequential sieve), the thread ring completes with batching requested, a ring
// batched without cycle detection stalls and the page says so, and the batch chart's measured
// ratios reach the paper rows.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { openHarness, pageErrors, type Harness } from './harness';

const SLUG = 'streams-with-phasers';

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

async function open(h: Harness, query: string, engine: 'threads' | 'simulation') {
  const page = await h.page();
  await page.goto(
    `${h.url}${engine === 'simulation' ? '?isolation=off' : ''}#/lessons/${SLUG}?${query}`,
  );
  await page.waitForSelector(`[data-testid=experiment][data-engine=${engine}][data-state=idle]`);
  return page;
}

async function runToDone(page: Page) {
  await page.getByTestId('run').click();
  await page.waitForSelector('[data-testid=experiment][data-state=done]', { timeout: 60_000 });
}

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
    const page = await open(h, 'graph=sieve', engine);
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
    const page = await open(h, 'graph=ring&batch=4096', engine);
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
    const page = await open(h, 'graph=ring&batch=64&batching=always', engine);
    await page.getByTestId('run').click();
    await expect
      .poll(() => page.getByRole('alert').first().textContent(), { timeout: 30_000 })
      .toContain('stalled');
    // A stalled run is an error run: stopped, its threads gone, the message on the page.
    await page.waitForSelector('[data-testid=experiment][data-state=error]', { timeout: 30_000 });
    expect(await graph(page).getAttribute('data-stalled')).toBe('true');
    // The page is still usable: the default ring runs after it.
    await page.goto(
      `${h.url}${engine === 'simulation' ? '?isolation=off' : ''}#/lessons/${SLUG}?graph=ring`,
    );
    await page.waitForSelector('[data-testid=experiment][data-state=idle]');
    await runToDone(page);
    expect(pageErrors(page)).toEqual([]);
  });
});

describe('the batch chart on real threads', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await openHarness({ isolationHeaders: true });
  });
  afterAll(() => h.close());

  test('measures push/pop and the ring per batch and reports the ratios beside the paper', async () => {
    const page = await open(h, '', 'threads');
    await page.getByTestId('batch-measure').click();
    const chart = page.getByTestId('batch-chart');
    const marks = (k: string) => chart.locator(`.dot[data-kind=${k}]`).count();
    await expect
      .poll(() => page.getByTestId('batch-measure').isEnabled(), { timeout: 170_000 })
      .toBe(true);
    expect(await marks('simulated')).toBe(10);
    expect(await marks('measured')).toBe(10);
    for (const row of ['push-pop-batching', 'thread-ring-hop']) {
      const cell = page.locator(`[data-testid=paper-claim][data-kind=measured][data-row=${row}]`);
      const ours = Number(await cell.getAttribute('data-ours-value'));
      expect(ours).toBeGreaterThan(0);
    }
    await h.screenshot(page, `lesson-${SLUG}-batch-chart`);
    expect(pageErrors(page)).toEqual([]);
  });
});
