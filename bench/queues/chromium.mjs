// Runs benchmark processes in headless Chromium. The project's static server
// (scripts/lib/staticServer.mjs, with the COOP/COEP headers) serves a site folder of links:
// /bench (the bench page and drivers), /wasm (the web build), /vendor/ringbuf.mjs (ringbuf.js's
// ES build). Each process is a fresh browser (own profile), so repeats never share a renderer.
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser } from '../../scripts/lib/browser.mjs';
import { repoRoot } from '../../scripts/lib/proc.mjs';
import { serveStatic } from '../../scripts/lib/staticServer.mjs';

/** Serves the bench site; the page is at `${url}bench/queues/page/index.html`. */
export async function serveBenchSite(emDir) {
  const site = join(repoRoot, 'wasm', 'build', 'bench-queues-site');
  rmSync(site, { recursive: true, force: true });
  mkdirSync(join(site, 'vendor'), { recursive: true });
  symlinkSync(join(repoRoot, 'bench'), join(site, 'bench'));
  symlinkSync(emDir, join(site, 'wasm'));
  symlinkSync(
    join(repoRoot, 'node_modules', 'ringbuf.js', 'dist', 'index.mjs'),
    join(site, 'vendor', 'ringbuf.mjs'),
  );
  const server = await serveStatic({ root: site, isolationHeaders: true });
  return { ...server, page: `${server.url}bench/queues/page/index.html` };
}

/** Opens `url` in a fresh headless Chromium and returns the page's JSON lines and the version. */
export async function runInChromium(url, { timeoutMs = 600_000 } = {}) {
  const browser = await launchBrowser();
  const { context } = browser;
  try {
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error(`[chromium] ${error.message}`));
    await page.goto(url);
    await page.waitForFunction(() => window.__benchResult || window.__benchError, null, {
      timeout: timeoutMs,
    });
    const error = await page.evaluate(() => window.__benchError);
    if (error) throw new Error(`bench page failed: ${error}`);
    const lines = await page.evaluate(() => window.__benchResult);
    return {
      lines,
      version: context.browser()?.version() ?? (await page.evaluate(() => navigator.userAgent)),
    };
  } finally {
    await browser.close();
  }
}
