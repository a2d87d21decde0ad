// Loads the real threaded Node build of the app module (wasm/build/em/node) for the wasm tests,
// and ends its pthread Workers afterwards (otherwise Node never exits).
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ModuleFactory, PipelabModule } from '../../src/engine/wasmExports';

const modulePath = resolve(__dirname, '../../wasm/build/em/node/pipelab-node-mt.js');

export async function loadNodeModule(poolSize = 2): Promise<PipelabModule> {
  if (!existsSync(modulePath))
    throw new Error(`${modulePath} is missing: build it with npm test (or npm run build)`);
  const factory = createRequire(import.meta.url)(modulePath) as ModuleFactory;
  return factory({ pthreadPoolSize: poolSize });
}

export function terminateThreads(mod: PipelabModule): void {
  (mod as unknown as { PThread: { terminateAllThreads(): void } }).PThread.terminateAllThreads();
}

/** Polls without blocking the event loop (pthread Workers start only while it turns). */
export async function waitFor(
  condition: () => boolean,
  limitMs: number,
  what: string,
): Promise<number> {
  const t0 = performance.now();
  while (!condition()) {
    if (performance.now() - t0 > limitMs)
      throw new Error(`timed out after ${limitMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
  return performance.now() - t0;
}
