// The production build on the hosts it meets, in Chromium, each with a lesson run: a plain static
// host under a sub-path (the site's service worker isolates the page); a strict
// Content-Security-Policy, with and without the isolation headers, with no violation on any route;
// offline after one visit; a new deployment picked up on the next online visit. (A cross-origin
// iframe is in present.test.ts.)
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import type { Page } from 'playwright-core';
import { sharedContext } from '../../scripts/lib/browser.mjs';
import { serveStatic } from '../../scripts/lib/staticServer.mjs';
import { precacheManifest } from '../../src/sw/precachePlugin';
import { distDir, QUICK_RUN, STRICT_CSP } from './harness';
/** Lesson 1 with its lightest stages: these tests are about the host, not the run. */
const LESSON = `#/lessons/pipelines-and-bubbles${QUICK_RUN['pipelines-and-bubbles']}`;

type Browser = Awaited<ReturnType<typeof sharedContext>>;
type Site = Awaited<ReturnType<typeof serveStatic>>;

let browser: Browser;
beforeAll(async () => {
  browser = await sharedContext(inject('chromiumWsEndpoint'));
});
afterAll(() => browser.close());

const uncaught = new WeakMap<Page, string[]>();
const pageErrors = (page: Page) => uncaught.get(page) ?? [];

/** A page that records uncaught errors and every CSP violation report. */
async function newPage(): Promise<Page> {
  const page = await browser.context.newPage();
  const errors: string[] = [];
  uncaught.set(page, errors);
  page.on('pageerror', (e) => errors.push(e.message));
  await page.addInitScript(() => {
    const w = window as unknown as { cspViolations: string[] };
    w.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      w.cspViolations.push(
        `${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`,
      ),
    );
  });
  return page;
}
const cspViolations = (page: Page) =>
  page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);

/** Waits until the site's service worker controls the page and the page is isolated. */
async function isolatedByWorker(page: Page) {
  await expect
    .poll(
      () =>
        page.evaluate(
          () => crossOriginIsolated === true && navigator.serviceWorker.controller !== null,
        ),
      { timeout: 30_000 },
    )
    .toBe(true);
}

/** Runs the lesson to the end on real threads. */
async function runLessonOnThreads(page: Page) {
  const panel = page.getByTestId('experiment');
  await expect.poll(() => panel.getAttribute('data-state'), { timeout: 30_000 }).toBe('idle');
  expect(await panel.getAttribute('data-engine')).toBe('threads');
  await page.getByTestId('run').click();
  await page.waitForSelector('[data-testid=experiment][data-state=done]', { timeout: 90_000 });
  expect(await page.getByTestId('throughput').getAttribute('data-kind')).toBe('measured');
}

describe('a plain static host under a sub-path, no headers', () => {
  let site: Site;
  beforeAll(async () => {
    site = await serveStatic({
      root: distDir,
      isolationHeaders: false,
      prefix: '/courses/pipelab/',
    });
  });
  afterAll(() => site.close());

  test('the service worker isolates the page and a lesson runs on real threads', async () => {
    const page = await newPage();
    await page.goto(`${site.url}${LESSON}`);
    await isolatedByWorker(page);
    await runLessonOnThreads(page);
    expect(pageErrors(page)).toEqual([]);
  });
});

describe.each([
  ['with the isolation headers', true],
  ['without headers (the service worker isolates)', false],
])('under a strict Content-Security-Policy, %s', (_name, isolationHeaders) => {
  let site: Site;
  beforeAll(async () => {
    site = await serveStatic({
      root: distDir,
      isolationHeaders,
      headers: { 'Content-Security-Policy': STRICT_CSP },
    });
  });
  afterAll(() => site.close());

  test('a lesson runs on real threads and nothing is blocked on any page', async () => {
    const page = await newPage();
    await page.goto(`${site.url}${LESSON}`);
    if (!isolationHeaders) await isolatedByWorker(page);
    await runLessonOnThreads(page);
    // Formulas keep their layout without inline styles: KaTeX's are classes here.
    expect(await page.locator('.katex [style]').count()).toBe(0);
    expect(await page.locator('.katex').count()).toBeGreaterThan(3);
    for (const hash of ['#/', '#/threads', '#/papers', '#/present/pipelines-and-bubbles']) {
      await page.goto(`${site.url}${hash}`);
      await page.waitForSelector('#root > *');
      await page.waitForTimeout(500);
    }
    expect(await cspViolations(page)).toEqual([]);
    expect(pageErrors(page)).toEqual([]);
  });
});

describe('offline and new deployments', () => {
  let first: string;
  let second: string;
  let site: Site;
  beforeAll(async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'pipelab-deploy-'));
    first = join(tmp, 'first');
    second = join(tmp, 'second');
    cpSync(distDir, first, { recursive: true });
    cpSync(distDir, second, { recursive: true });
    // The second deployment: another page title, and the worker's precache list to match (what
    // a new build writes), so the browser sees a new worker.
    const index = join(second, 'index.html');
    writeFileSync(
      index,
      readFileSync(index, 'utf8').replace('<title>', '<title>(second deployment) '),
    );
    const sw = join(second, 'sw.js');
    const listed = (dir: string) => JSON.stringify(JSON.stringify(precacheManifest(dir)));
    const oldList = listed(first);
    const code = readFileSync(sw, 'utf8');
    expect(code).toContain(oldList);
    writeFileSync(sw, code.replace(oldList, listed(second)));
    site = await serveStatic({ root: first, isolationHeaders: false });
  });
  afterAll(async () => {
    await site.close();
    await browser.context.setOffline(false);
    rmSync(join(first, '..'), { recursive: true, force: true });
  });

  test('after one visit the site works with the network off, wasm included', async () => {
    const page = await newPage();
    await page.goto(`${site.url}${LESSON}`);
    await isolatedByWorker(page);
    await page.waitForSelector('[data-testid=experiment][data-state=idle]');
    await browser.context.setOffline(true);
    try {
      await page.reload();
      await isolatedByWorker(page);
      await runLessonOnThreads(page);
      await page.goto(`${site.url}#/`);
      await page.waitForSelector('.lesson-card');
    } finally {
      await browser.context.setOffline(false);
    }
    expect(pageErrors(page)).toEqual([]);
  });

  test('a new deployment is picked up on the next online visit', async () => {
    const page = await newPage();
    await page.goto(`${site.url}#/`);
    await isolatedByWorker(page);
    expect(await page.title()).not.toContain('second deployment');
    site.setRoot(second);
    await page.reload();
    await expect.poll(() => page.title(), { timeout: 30_000 }).toContain('second deployment');
    await isolatedByWorker(page);
  });
});
