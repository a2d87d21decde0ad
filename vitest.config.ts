// Vitest suites: unit (pure TypeScript), wasm (the real Node wasm build, real pthreads),
// e2e (the production build in Debian's Chromium via playwright-core). Run one with --project.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          environment: 'node',
          // Timeouts only catch hangs: a seeded twin run that takes 3 s alone took over 5 s (the
          // default) at load 50 on this 2-core machine.
          testTimeout: 60_000,
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
          environment: 'node',
          testTimeout: 180_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
