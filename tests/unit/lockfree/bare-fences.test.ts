// No stand-alone fence outside wasm/include/pipelab/sync.hpp: ThreadSanitizer does not model
// std::atomic_thread_fence, so a fence written anywhere else is code the TSan suite cannot check.
// GCC's -Werror=tsan (the TSan build) catches fences in what the TSan tests compile; this catches
// them in every C++ file of the repository, whichever compiler builds it (clang has no -Wtsan).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { expect, test } from 'vitest';

const root = resolve(__dirname, '../../..');
const SCANNED = ['wasm', 'bench', 'tests/native'];
const SKIPPED_DIRS = new Set(['build', 'node_modules']);
const HELPER = 'wasm/include/pipelab/sync.hpp';

function cppFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return SKIPPED_DIRS.has(f) ? [] : cppFiles(p);
    return /\.(hpp|cpp|h|cc)$/.test(f) ? [p] : [];
  });
}

/** Lines (1-based) that call a stand-alone fence, comments and strings left out. */
function bareFenceLines(source: string): number[] {
  const code = source
    .replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' '))
    .replace(/\/\/.*$/gm, '')
    .replace(/"(?:\\.|[^"\\\n])*"/g, '""');
  const fence =
    /\b(?:std::)?atomic_thread_fence\s*\(|\b__atomic_thread_fence\s*\(|\b__sync_synchronize\s*\(/;
  return code.split('\n').flatMap((line, i) => (fence.test(line) ? [i + 1] : []));
}

test('the scanner sees a fence call and ignores one in a comment or a string', () => {
  const sample = [
    '// std::atomic_thread_fence(std::memory_order_seq_cst) in a comment',
    'const char* s = "atomic_thread_fence(";',
    '  std::atomic_thread_fence(std::memory_order_seq_cst);',
    '  __sync_synchronize();',
  ].join('\n');
  expect(bareFenceLines(sample)).toEqual([3, 4]);
});

test('stand-alone fences appear only in pipelab/sync.hpp', () => {
  const found: string[] = [];
  for (const dir of SCANNED)
    for (const file of cppFiles(join(root, dir))) {
      const name = relative(root, file);
      if (name === HELPER) continue;
      for (const line of bareFenceLines(readFileSync(file, 'utf8'))) found.push(`${name}:${line}`);
    }
  expect(found, 'use Sync::fence() from pipelab/sync.hpp instead').toEqual([]);
  expect(bareFenceLines(readFileSync(join(root, HELPER), 'utf8')).length).toBe(1);
});
