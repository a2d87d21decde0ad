// The folders of src/ follow the flow of data (src/README.md): each imports only from folders
// before it, and no two files import each other, directly or around a cycle.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { expect, test } from 'vitest';

const src = resolve(__dirname, '../../src');
/** In flow order; a folder may import from the folders before it. */
const LAYERS = [
  'sw',
  'spec',
  'telemetry',
  'model',
  'sim',
  'engine',
  'live',
  'replay',
  'export',
  'lessons',
  'views',
  'app',
];

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

test('every src folder is placed in the flow', () => {
  const folders = readdirSync(src).filter((f) => statSync(join(src, f)).isDirectory());
  expect(folders.filter((f) => !LAYERS.includes(f))).toEqual([]);
});

test('each folder imports only from folders before it in the flow', () => {
  const wrong: string[] = [];
  for (const [file, targets] of imports)
    for (const target of targets) {
      const from = LAYERS.indexOf(folderOf(file));
      const to = LAYERS.indexOf(folderOf(target));
      if (from >= 0 && to > from) wrong.push(`${relative(src, file)} → ${relative(src, target)}`);
    }
  expect(wrong).toEqual([]);
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
  };
  visit(join(src, 'main.tsx'));
  // KaTeX is ~260 kB: Formula.tsx imports it with import() when a formula is drawn.
  expect(heavy).toEqual([]);
  expect(seen.size).toBeGreaterThan(100);
});
