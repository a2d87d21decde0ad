// A small static file server for dist/: with the two isolation headers (like a configured host) or
// without them (a plain static host, where the site's service worker must do the job). Used by the e2e
// tests and the UI benchmark; binds to 127.0.0.1 on the port given (0 = any free port).
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.woff': 'font/woff',
};

/**
 * @param {{root: string, port?: number, isolationHeaders: boolean, prefix?: string,
 *   headers?: Record<string, string>}} options
 *   prefix: serve the site under a sub-path such as '/course/' (files map below it);
 *   headers: more headers on every response (e.g. a Content-Security-Policy).
 * @returns {Promise<{url: string, close: () => Promise<void>, setRoot: (dir: string) => void}>}
 *   setRoot: serve another folder from now on (a new deployment at the same address).
 */
export function serveStatic({
  root,
  port = 0,
  isolationHeaders,
  prefix = '/',
  headers: extra = {},
}) {
  let base = resolve(root);
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    if (!path.startsWith(prefix)) return send(res, 404, 'not found');
    let file = normalize(join(base, path.slice(prefix.length)));
    if (!file.startsWith(base)) return send(res, 403, 'forbidden');
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!existsSync(file)) return send(res, 404, 'not found');
    const headers = {
      'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
      'Cache-Control': 'no-cache',
    };
    Object.assign(headers, extra);
    if (isolationHeaders) {
      headers['Cross-Origin-Opener-Policy'] = 'same-origin';
      headers['Cross-Origin-Embedder-Policy'] = 'require-corp';
    }
    res.writeHead(200, headers);
    createReadStream(file).pipe(res);
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => {
      const { port: actual } = server.address();
      ok({
        url: `http://127.0.0.1:${actual}${prefix}`,
        // A browser keeps connections alive: end them, or close() waits for them.
        close: () =>
          new Promise((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
        setRoot: (dir) => {
          base = resolve(dir);
        },
      });
    });
  });
}

function send(res, status, text) {
  res.writeHead(status, { 'Content-Type': 'text/plain' });
  res.end(text);
}
