// E2E harness: serves the production build (dist/) the ways a host would — with the isolation
// headers, or as a plain static host — or points at a running dev server, and drives Debian's
// Chromium, recording each page's uncaught errors and console errors; screenshots are kept in
// tests/artifacts/screenshots.
import { existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { expect, inject, onTestFinished, type TestContext } from 'vitest';
import { sharedContext } from '../../scripts/lib/browser.mjs';
import { serveStatic } from '../../scripts/lib/staticServer.mjs';

const root = resolve(__dirname, '../..');
export const distDir = resolve(root, 'dist');
const screenshotDir = resolve(root, 'tests/artifacts/screenshots');

export interface Harness {
  url: string;
  context: BrowserContext;
  /** A new page, closed when the test ends. A concurrent test passes its own context: the
   * module-level hook cannot tell which of the running tests is "the current one". */
  page(test?: Pick<TestContext, 'onTestFinished'>): Promise<Page>;
  screenshot(page: Page, name: string): Promise<void>;
  close(): Promise<void>;
}

/** The policy the README promises the app works under (no unsafe-eval, no unsafe-inline). */
export const STRICT_CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; " +
  "img-src 'self' data:; worker-src 'self' blob:";

export async function openHarness(options: {
  isolationHeaders: boolean;
  prefix?: string;
  /** More headers on every response (e.g. STRICT_CSP as Content-Security-Policy). */
  headers?: Record<string, string>;
}): Promise<Harness> {
  if (!existsSync(resolve(distDir, 'index.html')))
    throw new Error('dist/ is missing: npm test builds it (or run npm run build)');
  const server = await serveStatic({ root: distDir, ...options });
  return openBrowserAt(server.url, () => server.close());
}

/** Chromium pointed at a site already served at `url`; `closeSite` runs after the browser closes. */
export async function openBrowserAt(
  url: string,
  closeSite: () => Promise<void> = async () => {},
): Promise<Harness> {
  mkdirSync(screenshotDir, { recursive: true });
  const browser = await sharedContext(inject('chromiumWsEndpoint'));
  return {
    url,
    context: browser.context,
    async page(test) {
      const page = await browser.context.newPage();
      const errors: string[] = [];
      const consoleErrs: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => {
        if (m.type() === 'error') consoleErrs.push(m.text());
      });
      uncaught.set(page, errors);
      consoleErrorsOf.set(page, consoleErrs);
      // A page a test opens closes when the test ends: left open, every earlier lesson page kept
      // drawing frames and holding its engine's Workers while later tests ran (a11y.test.ts, 30
      // tests: 161 s with them open, 119 s closed). Pages a beforeAll hook opens serve several
      // tests and close with the browser. A failed close (the browser already gone) has no
      // bearing on the test's verdict, so it is not reported.
      const close = () => void page.close().catch(() => {});
      if (test) test.onTestFinished(close);
      else if (expect.getState().currentTestName !== undefined) {
        // The test name outlives its test in expect's state (a beforeAll hook after another
        // file's tests still sees it), and onTestFinished outside a test throws: such a page
        // serves the hook's tests and closes with the browser.
        try {
          onTestFinished(close);
        } catch {
          /* opened by a hook */
        }
      }
      return page;
    },
    async screenshot(page, name) {
      await page.screenshot({ path: resolve(screenshotDir, `${name}.png`), fullPage: true });
    },
    async close() {
      await browser.close();
      await closeSite();
    },
  };
}

/** Uncaught exceptions of each page opened through a harness. */
const uncaught = new WeakMap<Page, string[]>();
/** console.error messages of each page opened through a harness. */
const consoleErrorsOf = new WeakMap<Page, string[]>();

export function pageErrors(page: Page): string[] {
  return uncaught.get(page) ?? [];
}

export function consoleErrors(page: Page): string[] {
  return consoleErrorsOf.get(page) ?? [];
}

/** Each thread's total count, read from the bars' data attributes. */
export async function threadCounts(page: Page): Promise<number[]> {
  return page.$$eval('[data-testid=thread-counter] rect.bar', (bars) =>
    bars.map((b) => Number(b.getAttribute('data-count'))),
  );
}

export async function experimentData(page: Page): Promise<DOMStringMap> {
  return page.getByTestId('experiment').evaluate((e) => ({ ...(e as HTMLElement).dataset }));
}

/** Starts a requestAnimationFrame recorder in the page; stopFrameGaps() returns the largest gap (ms). */
export async function startFrameGaps(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __gaps: number[]; __gapsOn: boolean };
    w.__gaps = [];
    w.__gapsOn = true;
    let last = performance.now();
    const tick = (t: number) => {
      w.__gaps.push(t - last);
      last = t;
      if (w.__gapsOn) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

export async function stopFrameGaps(page: Page): Promise<{ maxGapMs: number; frames: number }> {
  return page.evaluate(() => {
    const w = window as unknown as { __gaps: number[]; __gapsOn: boolean };
    w.__gapsOn = false;
    const gaps = w.__gaps.slice(1);
    return { maxGapMs: Math.max(...gaps), frames: gaps.length };
  });
}

/** A small ExperimentSpec for #/experiment?spec=… routes, URL-encoded. */
export const AD_HOC_SPEC_PARAM = encodeURIComponent(
  JSON.stringify({
    runtime: 'static',
    stages: [{ name: 'only', mode: 'parallel', service: { kind: 'fixed', us: 100 } }],
    items: 100,
    seed: 1,
  }),
);

/**
 * Control values that make a lesson's default run shorter and draw the same views, for tests that
 * need a finished run, not its numbers. Lesson 1's 300 items at 16 ms of extract on one thread
 * took 13 of an accessibility test's 17.5 s; e2e time is CPU time on two cores, spent again by
 * every test that runs a lesson. Lessons not listed have no control that shortens them.
 */
export const QUICK_RUN: Record<string, string> = {
  'pipelines-and-bubbles': '?extractUs=1000&rankUs=1000',
  'balancing-a-static-pipeline': '?items=20',
  'queues-and-cache-lines': '?serviceUs=1000',
};
