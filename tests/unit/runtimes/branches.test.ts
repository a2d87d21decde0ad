// Shared code asks a runtime kind's module (src/runtimes) what the kind means: no test of
// `spec.runtime`, no switch on it, no comparison with a kind's name and no table keyed by the
// kinds is left in src/ outside the spec (which validates each kind), the twin (which runs it)
// and the modules themselves. Every such branch found is named with its file and line.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { RUNTIMES } from '../../../src/spec/experimentSpec';

const src = resolve(__dirname, '../../../src');
/** Where a kind's own rules live: its fields, its twin, its module. */
const OWNERS = ['spec', 'sim', 'runtimes'];

const kinds = RUNTIMES.map((k) => k.replace(/-/g, '\\-')).join('|');
const BRANCH = new RegExp(
  [
    String.raw`\bruntime\s*[!=]==?`, // spec.runtime === …, runtime !== …
    String.raw`[!=]==?\s*[\w.?!]*\bruntime\b`, // … === spec.runtime
    String.raw`switch\s*\([^)]*\bruntime\b`,
    String.raw`includes\([\w.?!]*\bruntime\)`,
    String.raw`[!=]==?\s*'(?:${kinds})'`, // kind === 'barrier'
    String.raw`'(?:${kinds})'\s*[!=]==?`,
    String.raw`\bcase\s+'(?:${kinds})'\s*:`,
    String.raw`Record<Runtime\b`,
  ].join('|'),
  'g',
);

/** Each runtime branch in a text, as `line: code`. */
export function runtimeBranches(text: string): string[] {
  return text
    .split('\n')
    .flatMap((line, i) => [...line.matchAll(BRANCH)].map(() => `${i + 1}: ${line.trim()}`));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return sourceFiles(p);
    return /\.(ts|tsx)$/.test(f) ? [p] : [];
  });
}

test('the counter finds each way of branching on a runtime kind', () => {
  const samples = [
    "if (spec.runtime === 'barrier') return 1;",
    "const a = spec?.runtime !== 'phaser';",
    "const b = 'work-stealing' === spec.runtime;",
    'switch (spec.runtime) {',
    "  case 'two-stage-output':",
    "const c = kind === 'collapsed';",
    "const d = ['static', 'collapsed'].includes(spec.runtime);",
    'const e: Record<Runtime, number> = table;',
  ];
  expect(samples.map((s) => runtimeBranches(s).length)).toEqual(samples.map(() => 1));
  // Asking the module, naming a kind in a spec literal, or a stage mode: no branch.
  const fine = [
    'const kind = runtimeOf(spec);',
    "const spec = { runtime: 'static', stages };",
    "if (stage.mode === 'parallel') return;",
  ];
  expect(fine.flatMap(runtimeBranches)).toEqual([]);
});

test('no runtime branch in src outside the spec, the twin and the runtime modules', () => {
  const branches = sourceFiles(src)
    .filter((f) => !OWNERS.includes(relative(src, f).split('/')[0]))
    .flatMap((f) =>
      runtimeBranches(readFileSync(f, 'utf8')).map((b) => `${relative(src, f)}:${b}`),
    );
  expect(branches).toEqual([]);
});
