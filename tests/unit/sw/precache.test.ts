// The service worker's precache list: every file of the build but the skipped ones, a revision
// that follows the content, a stable order.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { precacheManifest } from '../../../src/sw/precachePlugin';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function site(files: Record<string, string>) {
  dir = mkdtempSync(join(tmpdir(), 'pipelab-precache-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

test('lists the site, skipping the worker, README pictures, maps, the wasm pointer, the build manifest and KaTeX’s legacy fonts', () => {
  const d = site({
    'index.html': '<html>',
    'sw.js': 'worker',
    'assets/index-1.js': 'js',
    'assets/index-1.js.map': 'map',
    'wasm/abc/pipelab-web-mt.wasm': 'wasm',
    'wasm/current.json': '{}',
    'screenshots/lesson.png': 'png',
    'previews/lesson.jpg': 'jpg',
    '.vite/manifest.json': '{}',
    'assets/KaTeX_Main-Regular-1.woff2': 'woff2',
    'assets/KaTeX_Main-Regular-1.woff': 'woff',
    'assets/KaTeX_Main-Regular-1.ttf': 'ttf',
  });
  expect(precacheManifest(d).map((e) => e.url)).toEqual([
    'assets/KaTeX_Main-Regular-1.woff2',
    'assets/index-1.js',
    'index.html',
    'previews/lesson.jpg',
    'wasm/abc/pipelab-web-mt.wasm',
  ]);
});

test('a file that changes gets a new revision; the others keep theirs', () => {
  const d = site({ 'index.html': 'one', 'a.js': 'same' });
  const before = precacheManifest(d);
  writeFileSync(join(d, 'index.html'), 'two');
  const after = precacheManifest(d);
  expect(after.find((e) => e.url === 'a.js')).toEqual(before.find((e) => e.url === 'a.js'));
  expect(after.find((e) => e.url === 'index.html')!.revision).not.toBe(
    before.find((e) => e.url === 'index.html')!.revision,
  );
});
