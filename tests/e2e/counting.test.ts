// The counting page in real Chromium: isolated → real threads that visibly count, a responsive
// page, clean stop/restart; isolation off → the single-thread fallback. (A plain static host under
// a sub-path, isolated by the site's service worker: deploy.test.ts, with a lesson run. Bad query
// values: tests/unit/pages/badQuery.test.tsx.)
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import {
  experimentData,
  openHarness,
  pageErrors,
  startFrameGaps,
  stopFrameGaps,
  threadCounts,
  type Harness,
} from './harness';

async function waitForState(page: Page, state: string) {
  await page.waitForSelector(`[data-testid=experiment][data-state=${state}]`, { timeout: 20_000 });
}

async function startRun(page: Page) {
  await page.getByTestId('start').click({ timeout: 20_000 });
  await waitForState(page, 'running');
}

async function stopRun(page: Page) {
  await page.getByTestId('stop').click();
  await page.waitForSelector('[data-testid=experiment][data-state=done][data-pool-workers]', {
    timeout: 20_000,
  });
}

/** Samples every thread's count `samples` times; each sample must exceed the previous one. */
/** Every thread's count rises, `samples` times over: each time, every thread has counted more
 * since the last sample (waiting as long as a loaded machine needs, not a fixed time). */
async function expectEveryThreadRises(page: Page, threads: number, samples = 6) {
  let previous = await threadCounts(page);
  expect(previous).toHaveLength(threads);
  for (let s = 0; s < samples; s++) {
    const before = previous;
    await expect
      .poll(
        async () => {
          previous = await threadCounts(page);
          return previous.every((c, i) => c > before[i]);
        },
        { timeout: 10_000, interval: 100 },
      )
      .toBe(true);
  }
}

describe('served with COOP/COEP headers', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await openHarness({ isolationHeaders: true });
  });
  afterAll(() => h.close());

  test('real threads count (one per core, the default), the page stays responsive', async () => {
    const page = await h.page();
    const cores = await page.evaluate(() => navigator.hardwareConcurrency);
    await page.goto(`${h.url}#/threads?layout=packed`);
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    await page.waitForSelector(
      '[data-testid=experiment][data-engine=threads] .engine-badge.threads',
    );
    await waitForState(page, 'idle');
    await startFrameGaps(page);
    await startRun(page);
    await expectEveryThreadRises(page, Math.min(cores, 64));
    const { maxGapMs, frames } = await stopFrameGaps(page);
    // The page keeps drawing while threads count: a main thread blocked on the threads (a join or
    // Atomics.wait there) would stop it for seconds. How smooth it is, is a benchmark's business
    // (npm run bench:ui): on a loaded 2-core machine a frame can take 150 ms.
    expect(frames).toBeGreaterThan(10);
    expect(maxGapMs).toBeLessThan(1000);
    await h.screenshot(page, 'counting-threads-running');
    await stopRun(page);
    const after = await threadCounts(page);
    await page.waitForTimeout(200);
    expect(await threadCounts(page)).toEqual(after);
    expect(pageErrors(page)).toEqual([]);
  });

  test('stop and restart 20 times: no extra Worker, no memory growth', async () => {
    const page = await h.page();
    await page.goto(`${h.url}#/threads?threads=3&layout=padded`);
    await waitForState(page, 'idle');
    const cdp = await page.context().newCDPSession(page);
    const heapUsed = async () => {
      await cdp.send('HeapProfiler.collectGarbage');
      return (await cdp.send('Runtime.getHeapUsage')).usedSize;
    };
    const pool: number[] = [];
    const browserWorkers: number[] = [];
    let heapAfterFirst = 0;
    for (let round = 0; round < 20; round++) {
      await startRun(page);
      await page.waitForFunction(
        () =>
          Array.from(document.querySelectorAll('[data-testid=thread-counter] rect.bar')).every(
            (b) => Number(b.getAttribute('data-count')) > 0,
          ),
        undefined,
        { timeout: 20_000 },
      );
      await stopRun(page);
      pool.push(Number((await experimentData(page)).poolWorkers));
      browserWorkers.push(page.workers().length);
      expect(Number((await experimentData(page)).stopMs)).toBeLessThan(1000);
      if (round === 0) heapAfterFirst = await heapUsed();
    }
    expect(new Set(pool)).toEqual(new Set([pool[0]]));
    expect(pool[0]).toBeGreaterThanOrEqual(3);
    // What the browser itself counts: the engine worker plus the pthread Workers it owns.
    expect(new Set(browserWorkers)).toEqual(new Set([1 + pool[0]]));
    const growthBytes = (await heapUsed()) - heapAfterFirst;
    expect(growthBytes).toBeLessThan(8 * 1024 * 1024);
    expect(pageErrors(page)).toEqual([]);
  });

  test('compare both layouts measures each', async () => {
    const page = await h.page();
    await page.goto(`${h.url}#/threads?threads=2`);
    await waitForState(page, 'idle');
    await page.getByRole('button', { name: 'Compare both layouts' }).click();
    await page.waitForSelector('.verdict', { timeout: 20_000 });
    for (const layout of ['packed', 'padded'])
      expect(
        Number(await page.locator(`tr[data-layout=${layout}]`).getAttribute('data-rate')),
      ).toBeGreaterThan(0);
    await h.screenshot(page, 'counting-threads-compared');
  });
});

describe('isolation turned off (no headers, no service worker)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await openHarness({ isolationHeaders: false });
  });
  afterAll(() => h.close());

  test('isolation off: the single-thread fallback runs and says so', async () => {
    const page = await h.page();
    await page.goto(`${h.url}?isolation=off#/threads?threads=3`);
    await page.waitForSelector(
      '[data-testid=experiment][data-engine=simulation][data-state=idle]',
      {
        timeout: 20_000,
      },
    );
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(false);
    await expect
      .poll(() => page.locator('.engine-badge').textContent())
      .toContain('not cross-origin isolated');
    await startRun(page);
    await expectEveryThreadRises(page, 3, 5);
    // One thread takes the threads' turns: every figure says simulated, none says measured.
    expect(await page.getByTestId('total-rate').getAttribute('data-kind')).toBe('simulated');
    expect(await page.locator('[data-kind=simulated]').count()).toBeGreaterThan(3);
    expect(await page.locator('[data-kind=measured]').count()).toBe(0);
    await h.screenshot(page, 'counting-single-thread-fallback');
    await stopRun(page);
    expect(pageErrors(page)).toEqual([]);
  });
});
