// Vite: the React app, served with the two headers that make the page cross-origin isolated
// (SharedArrayBuffer, so real wasm threads); in the build, also the service worker (offline, and
// isolation on hosts without the headers). The wasm folder published by scripts/lib/wasm.mjs is
// named by content hash; its name is compiled in so the engine imports the matching glue.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
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

export default defineConfig({
  base: process.env.PIPELAB_BASE ?? './',
  plugins: [
    react(),
    lessonsPlugin(root, process.env.PIPELAB_LESSONS_DIR),
    serviceWorkerPlugin(root),
  ],
  define: { __PIPELAB_WASM_DIR__: JSON.stringify(wasmDir()) },
  server: { port: 5173, strictPort: true, headers: isolationHeaders },
  preview: { port: 4173, strictPort: true, headers: isolationHeaders },
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    chunkSizeWarningLimit: 1200,
    // A strict CSP (README) allows no data: fonts: every asset is a file of its own.
    assetsInlineLimit: 0,
    // The lessons plugin's load is the lesson checks (claims run the twin): slow by design, so the
    // bundler's note about slow plugin callbacks would only repeat that on every build.
    rolldownOptions: { checks: { pluginTimings: false } },
  },
});
