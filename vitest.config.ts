// Vitest suites: unit (pure TypeScript), wasm (the real Node wasm build, real pthreads),
// e2e (the production build in Debian's Chromium via playwright-core). Run one with --project.
import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

const root = import.meta.dirname;

export default defineConfig({
  test: {
    projects: [
      {
        define: { __PIPELAB_WASM_DIR__: JSON.stringify('unit-tests') },
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          // Page tests (tests/unit/pages) mount the app: its lessons as the build gives them, and a
          // wasm folder name for the engines' module URLs (no engine loads one there).
          alias: { 'virtual:lessons': resolve(root, 'tests/unit/pages/virtualLessons.ts') },
          setupFiles: ['tests/unit/pages/domSetup.ts'],
          environment: 'node',
          // Timeouts only catch hangs: a seeded twin run that takes 3 s alone took over 5 s (the
          // default) at load 50 on this 2-core machine.
          testTimeout: 60_000,
          // One module graph for every file instead of a fresh one each: 13 s instead of 44 s for
          // the 76 files (nearly all of it was importing d3, React and the sources again per file),
          // and it passed in shuffled file orders. So a unit test must not leave module state
          // behind (a registered listener, a changed singleton) for the next file to find.
          isolate: false,
        },
      },
      {
        test: {
          name: 'wasm',
          include: ['tests/wasm/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          // One Chromium for every file (tests/e2e/chromiumServer.ts).
          globalSetup: ['tests/e2e/chromiumServer.ts'],
          environment: 'node',
          testTimeout: 180_000,
          hookTimeout: 180_000,
          // One file at a time: the tests run real threads and Chromium on two cores, which two
          // files at once only share (the same files took as long side by side, 2026-11-28).
          fileParallelism: false,
          // Imports once, not per file (playwright-core, the sources): each file still opens
          // its own browser.
          isolate: false,
        },
      },
    ],
  },
});
