// A small static file server for dist/: with the two isolation headers (like a configured host) or
// without them (a plain static host, where the site's service worker must do the job). Used by the e2e
// tests and the UI and load benchmarks; binds to 127.0.0.1 on the port given (0 = any free port).
// With `gzip`, text files (and the wasm modules) are sent gzipped to a browser that accepts it, as
// a configured host or CDN sends them; without, every byte goes as is, as a plain static host does.
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

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

/** What a host compresses: text and wasm. Images and woff/woff2 fonts are compressed already. */
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.wasm', '.svg', '.ttf']);

/**
 * @param {{root: string, port?: number, isolationHeaders: boolean, prefix?: string,
 *   headers?: Record<string, string>, gzip?: boolean}} options
 *   prefix: serve the site under a sub-path such as '/course/' (files map below it);
 *   headers: more headers on every response (e.g. a Content-Security-Policy);
 *   gzip: compress COMPRESSIBLE files for a request that accepts gzip (level 6, kept in memory).
 * @returns {Promise<{url: string, close: () => Promise<void>, setRoot: (dir: string) => void}>}
 *   setRoot: serve another folder from now on (a new deployment at the same address).
 */
export function serveStatic({
  root,
  port = 0,
  isolationHeaders,
  prefix = '/',
  headers: extra = {},
  gzip = false,
}) {
  let base = resolve(root);
  /** file → {mtimeMs, body}: each file is compressed once per version. */
  const gzipped = new Map();
  const gzipBody = (file) => {
    const { mtimeMs } = statSync(file);
    const kept = gzipped.get(file);
    if (kept?.mtimeMs === mtimeMs) return kept.body;
    const body = gzipSync(readFileSync(file), { level: 6 });
    gzipped.set(file, { mtimeMs, body });
    return body;
  };
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
    if (gzip && COMPRESSIBLE.has(extname(file))) {
      headers['Vary'] = 'Accept-Encoding';
      if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
        const body = gzipBody(file);
        res.writeHead(200, {
          ...headers,
          'Content-Encoding': 'gzip',
          'Content-Length': body.length,
        });
        return res.end(body);
      }
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
