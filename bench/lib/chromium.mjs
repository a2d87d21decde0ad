// Runs benchmark programs in headless Chromium (bench:queues, bench:pipelines). The project's
// static server (scripts/lib/staticServer.mjs, with the COOP/COEP headers) serves a site folder of
// links: /bench (the bench pages and drivers), /wasm (the bench's Emscripten build folder) and any
// /vendor files the bench names. Each page is a fresh browser (own profile), so repeats never
// share a renderer.
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser } from '../../scripts/lib/browser.mjs';
import { repoRoot } from '../../scripts/lib/proc.mjs';
import { serveStatic } from '../../scripts/lib/staticServer.mjs';

/**
 * Serves a bench site: `${url}bench/...` is the repo's bench folder and `${url}wasm/` is emDir.
 * @param {{name: string, emDir: string, vendor?: Record<string, string>}} site
 *   name: the site folder's name (wasm/build/bench-<name>-site); vendor: file name under /vendor/
 *   to the repo-relative path it links to.
 * @returns {Promise<{url: string, close(): Promise<void>, program(name: string, args: string[]): string}>}
 *   program(): the URL of the page that runs /wasm/<name>.js with args (bench/lib/page).
 */
export async function serveBenchSite({ name, emDir, vendor = {} }) {
  const site = join(repoRoot, 'wasm', 'build', `bench-${name}-site`);
  rmSync(site, { recursive: true, force: true });
  mkdirSync(join(site, 'vendor'), { recursive: true });
  symlinkSync(join(repoRoot, 'bench'), join(site, 'bench'));
  symlinkSync(emDir, join(site, 'wasm'));
  for (const [file, target] of Object.entries(vendor))
    symlinkSync(join(repoRoot, target), join(site, 'vendor', file));
  const server = await serveStatic({ root: site, isolationHeaders: true });
  const program = (program, args) => {
    const query = new URLSearchParams([['program', program], ...args.map((a) => ['arg', a])]);
    return `${server.url}bench/lib/page/index.html?${query}`;
  };
  return { ...server, program };
}

/** Opens `url` in a fresh headless Chromium and returns the page's JSON lines and the version. */
export async function runInChromium(url, { timeoutMs = 600_000 } = {}) {
  const browser = await launchBrowser();
  const { context } = browser;
  try {
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error(`[chromium] ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') console.error(`[chromium] ${message.text()}`);
    });
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
