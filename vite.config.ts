// Vite: the React app, served with the two headers that make the page cross-origin isolated
// (SharedArrayBuffer, so real wasm threads); in the build, also the service worker (offline, and
// isolation on hosts without the headers). The wasm folder published by scripts/lib/wasm.mjs is
// named by content hash; its name is compiled in so the engine imports the matching glue.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { routePreloadPlugin } from './src/app/routePreloadPlugin.ts';
import { lessonsPlugin } from './src/lessons/vitePlugin.ts';
import { serviceWorkerPlugin } from './src/sw/precachePlugin.ts';

const isolationHeaders = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

const root = fileURLToPath(new URL('.', import.meta.url));

function wasmDir(): string | null {
  const manifest = new URL('./public/wasm/current.json', import.meta.url);
  return existsSync(manifest) ? (JSON.parse(readFileSync(manifest, 'utf8')).dir as string) : null;
}

/** What getModuleInfo tells of a module's static imports (rolldown's chunking context). */
type ModuleGraph = { getModuleInfo(id: string): { importedIds: readonly string[] } | null };

/**
 * Chunks for a first visit: the entry holds what every page needs (React, the shell, the start
 * page); a lesson route adds one `lesson` chunk, everything the lesson page and its experiment panel
 * import (the engines, the twin, the models, the views they draw, d3), then its own data and the
 * chunks of the components it places. Left to itself the bundler cut that core into ~45 chunks of
 * a few hundred bytes each: 45 requests, each a round trip on a phone's network.
 */
function lessonCoreChunk() {
  const entry = resolve(root, 'src/main.tsx');
  const core = ['src/app/lesson/LessonPage.tsx', 'src/app/lesson/components/ExperimentBlock.tsx'];
  let initial: Set<string> | null = null;
  let lesson: Set<string> | null = null;
  const closure = (graph: ModuleGraph, ids: string[]) => {
    const seen = new Set<string>();
    const visit = (id: string) => {
      if (seen.has(id)) return;
      seen.add(id);
      for (const next of graph.getModuleInfo(id)?.importedIds ?? []) visit(next);
    };
    ids.forEach(visit);
    return seen;
  };
  const roots = new Set(core.map((f) => resolve(root, f)));
  return (id: string, graph: ModuleGraph) => {
    initial ??= closure(graph, [entry]);
    lesson ??= closure(graph, [...roots]);
    // The two stay chunks of their own (a few hundred bytes each), so the build's manifest still
    // names them: bench/load/criticalPath.mjs follows a route's modules through it.
    return !initial.has(id) && lesson.has(id) && !roots.has(id) ? 'lesson' : null;
  };
}

/** The fields of a queue benchmark report the queue lesson reads (src/lessons/queueBench.ts's
 * BenchRow and BenchReport). */
const QUEUE_ROW_FIELDS = [
  'key',
  'queue',
  'variant',
  'stages',
  'capacity',
  'items_per_s',
  'items_per_s_min',
  'items_per_s_max',
  'rates',
  'run_id',
];

/** The committed queue reports (bench/results/queues-*.json) as the page imports them: only what
 * the lesson reads, 26 KB of gzipped JavaScript down to 12 on the queue lesson's first load (the
 * build's own lesson checks read the whole files, outside this pipeline). */
function slimQueueReports(): Plugin {
  return {
    name: 'pipelab-slim-queue-reports',
    enforce: 'pre',
    transform(code, id) {
      if (!/[\\/]bench[\\/]results[\\/]queues-[\w-]+\.json$/.test(id)) return null;
      const report = JSON.parse(code);
      const { date, loadavg_start, load } = report.machine;
      const results = report.results.map((row: Record<string, unknown>) =>
        Object.fromEntries(QUEUE_ROW_FIELDS.filter((f) => f in row).map((f) => [f, row[f]])),
      );
      return JSON.stringify({ machine: { date, loadavg_start, load }, results });
    },
  };
}

export default defineConfig({
  base: process.env.PIPELAB_BASE ?? './',
  plugins: [
    react(),
    lessonsPlugin(root, process.env.PIPELAB_LESSONS_DIR),
    serviceWorkerPlugin(root),
    slimQueueReports(),
    routePreloadPlugin(root, process.env.PIPELAB_LESSONS_DIR),
  ],
  define: { __PIPELAB_WASM_DIR__: JSON.stringify(wasmDir()) },
  server: { port: 5173, strictPort: true, headers: isolationHeaders },
  preview: { port: 4173, strictPort: true, headers: isolationHeaders },
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    chunkSizeWarningLimit: 1200,
    // dist/.vite/manifest.json: which chunks each route's modules need (bench/load/criticalPath.mjs
    // sums a lesson route's gzipped JavaScript from it; the budget test holds it under 170 KB).
    manifest: true,
    // A strict CSP (README) allows no data: fonts: every asset is a file of its own.
    assetsInlineLimit: 0,
    // The lessons plugin's load is the lesson checks (claims run the twin): slow by design, so the
    // bundler's note about slow plugin callbacks would only repeat that on every build.
    rolldownOptions: {
      checks: { pluginTimings: false },
      output: {
        codeSplitting: {
          groups: [{ name: lessonCoreChunk(), includeDependenciesRecursively: false }],
        },
      },
    },
  },
});
