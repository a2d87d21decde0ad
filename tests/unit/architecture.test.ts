// The folders of src/ follow the flow of data: src/README.md's table lists them in flow order, and
// each row's "imports from" names the folders that folder may import (all of them above it). This
// test reads that table, so the README and the code cannot drift apart; it also rejects any import
// cycle between files.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { expect, test } from 'vitest';

const src = resolve(__dirname, '../../src');

/** The README's layer table: folders in flow order, each with the folders it may import from. */
function layerTable(readme: string): Array<{ folder: string; importsFrom: string[] }> {
  const rows = [...readme.matchAll(/^\| `([a-z]+)\/` \|[^\n]*\| ([^|\n]+) \|$/gm)];
  const folders = rows.map((m) => m[1]);
  return rows.map((m, i) => {
    const cell = m[2].trim();
    const importsFrom =
      cell === '—'
        ? []
        : cell === 'everything above'
          ? folders.slice(0, i)
          : cell.split(',').map((f) => f.trim().replace(/^`|\/?`$/g, ''));
    return { folder: m[1], importsFrom };
  });
}

const LAYERS = layerTable(readFileSync(join(src, 'README.md'), 'utf8'));
const FLOW = LAYERS.map((l) => l.folder);
const ALLOWED = new Map(LAYERS.map((l) => [l.folder, new Set(l.importsFrom)]));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return sourceFiles(p);
    return /\.(ts|tsx)$/.test(f) && !f.endsWith('.d.ts') ? [p] : [];
  });
}

function resolveImport(from: string, spec: string): string | null {
  const base = resolve(dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')])
    if (candidate.endsWith('.ts') || candidate.endsWith('.tsx'))
      try {
        if (statSync(candidate).isFile()) return candidate;
      } catch {
        /* not this one */
      }
  return null;
}

const files = sourceFiles(src);
const imports = new Map(
  files.map((f) => [
    f,
    [...readFileSync(f, 'utf8').matchAll(/^(?:import|export)[^;]*?from '(\.[^']+)'/gm)]
      .map((m) => resolveImport(f, m[1]))
      .filter((x): x is string => x !== null),
  ]),
);
const folderOf = (file: string) => relative(src, file).split('/')[0];

test('the layer table lists every src folder once, and each row imports only from rows above it', () => {
  const folders = readdirSync(src).filter((f) => statSync(join(src, f)).isDirectory());
  expect(FLOW.length).toBeGreaterThan(10);
  expect([...FLOW].sort()).toEqual([...new Set(folders)].sort());
  const upward = LAYERS.flatMap(({ folder, importsFrom }) =>
    importsFrom
      .filter((f) => !FLOW.slice(0, FLOW.indexOf(folder)).includes(f))
      .map((f) => `${folder} may import ${f}, which is not above it`),
  );
  expect(upward).toEqual([]);
});

test('each folder imports only from the folders its row in src/README.md names', () => {
  const wrong: string[] = [];
  for (const [file, targets] of imports)
    for (const target of targets) {
      const from = folderOf(file);
      const to = folderOf(target);
      // Files at the top of src/ (main.tsx) are the entry, not a layer.
      if (from === to || !ALLOWED.has(from)) continue;
      if (!ALLOWED.get(from)!.has(to))
        wrong.push(`${relative(src, file)} → ${relative(src, target)}`);
    }
  expect(wrong).toEqual([]);
});

test('the table reader takes the columns as written', () => {
  const table = layerTable(
    ['| `a/` | x | — |', '| `b/` | y, z | a |', '| `c/` | w | everything above |'].join('\n'),
  );
  expect(table).toEqual([
    { folder: 'a', importsFrom: [] },
    { folder: 'b', importsFrom: ['a'] },
    { folder: 'c', importsFrom: ['a', 'b'] },
  ]);
});

test('no import cycle between files', () => {
  const state = new Map<string, 'open' | 'done'>();
  const cycles: string[] = [];
  const visit = (file: string, path: string[]) => {
    if (state.get(file) === 'done') return;
    if (state.get(file) === 'open') {
      cycles.push(
        [...path.slice(path.indexOf(file)), file].map((f) => relative(src, f)).join(' → '),
      );
      return;
    }
    state.set(file, 'open');
    for (const t of imports.get(file) ?? []) visit(t, [...path, file]);
    state.set(file, 'done');
  };
  for (const f of files) visit(f, []);
  expect(cycles).toEqual([]);
});

test("the page's code reaches the build's markdown and TeX renderers only lazily", () => {
  // Value imports (not `import type`), relative or bare, of one file.
  const valueImports = (file: string) =>
    [
      ...readFileSync(file, 'utf8').matchAll(/^(?:import|export)(?! type )[^;]*?from '([^']+)'/gm),
    ].map((m) => m[1]);
  // The app's own chunks (a route's page, a lesson's components: import('./…')) are its code too.
  const lazyOwnImports = (file: string) =>
    [...readFileSync(file, 'utf8').matchAll(/\bimport\('(\.[^']+)'\)/g)].map((m) => m[1]);
  const seen = new Set<string>();
  const heavy: string[] = [];
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const spec of valueImports(file)) {
      if (spec === 'katex' || spec === 'marked') heavy.push(`${relative(src, file)} → ${spec}`);
      const next = spec.startsWith('.') ? resolveImport(file, spec) : null;
      if (next) visit(next);
    }
    for (const spec of lazyOwnImports(file)) {
      const next = resolveImport(file, spec);
      if (next) visit(next);
    }
  };
  visit(join(src, 'main.tsx'));
  // KaTeX is ~260 kB: Formula.tsx imports it with import() when a formula is drawn.
  expect(heavy).toEqual([]);
  expect(seen.size).toBeGreaterThan(100);
});
