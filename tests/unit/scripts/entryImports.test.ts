// The npm entry scripts that set up a fresh machine (bootstrap: apt packages, `npm ci`) must load
// before node_modules exists: everything they import statically, followed through the repo's own
// modules, is a Node built-in. A package (vite, playwright-core) is imported only after the
// bootstrap, with `await import(...)`. On a fresh clone a static `import 'vite'` in start.mjs made
// `npm start` die with ERR_MODULE_NOT_FOUND before it could install anything.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

const scripts = resolve(__dirname, '../../../scripts');
const STATIC_IMPORT = /^\s*import\s+(?:[^'"]*?\s+from\s+)?['"]([^'"]+)['"]/gm;

/** Bare specifiers (packages) reached through static imports from `file`, with who imports them. */
function staticPackages(file: string, seen = new Set<string>()): string[] {
  if (seen.has(file)) return [];
  seen.add(file);
  const found: string[] = [];
  for (const [, spec] of readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)) {
    if (spec.startsWith('.')) found.push(...staticPackages(join(dirname(file), spec), seen));
    else if (!spec.startsWith('node:'))
      found.push(`${spec} (imported by ${file.slice(scripts.length + 1)})`);
  }
  return found;
}

const entries = readdirSync(scripts).filter(
  (f) =>
    f.endsWith('.mjs') &&
    f !== 'bootstrap.mjs' &&
    /\bbootstrap\(/.test(readFileSync(join(scripts, f), 'utf8')),
);

describe('entry scripts load before npm ci', () => {
  test('the scripts that bootstrap are found', () => {
    expect(entries).toEqual(expect.arrayContaining(['start.mjs', 'test.mjs', 'screenshots.mjs']));
  });

  test.each(entries)('%s imports only Node built-ins before it bootstraps', (entry) => {
    expect(staticPackages(join(scripts, entry))).toEqual([]);
  });

  test('the check sees a package import', () => {
    // browser.mjs imports playwright-core statically (it runs after the bootstrap).
    expect(staticPackages(join(scripts, 'lib/browser.mjs'))).toEqual([
      'playwright-core (imported by lib/browser.mjs)',
    ]);
  });
});
