// Starts the engine Web Worker (engineWorker.ts), the one place that names it, so that Vite
// bundles it once for the counting page and the lessons alike.
export const newEngineWorker = () =>
  new Worker(new URL('./engineWorker.ts', import.meta.url), { type: 'module', name: 'engine' });
