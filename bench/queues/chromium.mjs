// Runs benchmark processes in headless Chromium: a tiny cross-origin-isolated HTTP server on
// 127.0.0.1 serves the bench page, the web wasm build and ringbuf.js; each process is a fresh
// browser (own --user-data-dir), so repeats never share a renderer.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { launchBrowser } from '../../scripts/lib/browser.mjs';

const TYPES = {
  '.html': 'text/html',
  '.mjs': 'text/javascript',
  '.js': 'text/javascript',
  '.wasm': 'application/wasm',
};

// routes: URL prefix -> folder on disk (or a single file when the prefix is a whole path).
export async function startServer(routes) {
  const server = createServer(async (request, response) => {
    const path = decodeURIComponent(new URL(request.url, 'http://x').pathname);
    const prefix = Object.keys(routes).find(
      (p) => path === p || path.startsWith(p.endsWith('/') ? p : `${p}/`),
    );
    if (!prefix) return void response.writeHead(404).end();
    const file =
      path === prefix ? routes[prefix] : join(routes[prefix], normalize(path.slice(prefix.length)));
    try {
      const body = await readFile(file);
      response.writeHead(200, {
        'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
        'Cross-Origin-Opener-Policy': 'same-origin',
        'Cross-Origin-Embedder-Policy': 'require-corp',
        'Cache-Control': 'no-store',
      });
      response.end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${server.address().port}` };
}

// Opens `url` in a fresh headless Chromium and returns the page's JSON lines.
export async function runInChromium(url, { timeoutMs = 600_000 } = {}) {
  // Debian's Chromium with the project's flags and a throwaway profile (scripts/lib/browser.mjs).
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
