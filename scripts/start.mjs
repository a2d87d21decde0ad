// `npm start`: set up what is missing, build the wasm modules (Ninja rebuilds only what changed),
// then serve the app with COOP/COEP (cross-origin isolated: real threads) and print its URL once.
// `npm start -- --port 5174` (or PORT=5174) picks another port. Vite runs in this process with
// its log level at warnings, so a clean start prints the setup steps and the URL, nothing else.
import { parseArgs } from 'node:util';
import { bootstrap } from './bootstrap.mjs';
import { repoRoot } from './lib/proc.mjs';
import { buildWebModules } from './lib/wasm.mjs';

export const DEFAULT_PORT = 5173;

/** The port from `--port N` or PORT, checked; throws a message naming the bad value. */
export function readPort(argv, env) {
  const { values } = parseArgs({ args: argv, options: { port: { type: 'string' } } });
  const raw = values.port ?? env.PORT ?? String(DEFAULT_PORT);
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port < 1 || port > 65535)
    throw new Error(`--port ${raw} is not a port number (allowed 1..65535)`);
  return port;
}

async function main() {
  let port;
  try {
    port = readPort(process.argv.slice(2), process.env);
    bootstrap('start');
    await buildWebModules();
  } catch (e) {
    console.error(`\n${e.message}`);
    process.exit(1);
  }
  // Only now: on a fresh clone the bootstrap has just installed Vite (npm ci).
  const { createServer } = await import('vite');
  const server = await createServer({
    root: repoRoot,
    logLevel: 'warn',
    clearScreen: false,
    server: { port, strictPort: true },
  });
  try {
    await server.listen();
  } catch (e) {
    await server.close();
    const inUse = /already in use/i.test(e.message) || e.code === 'EADDRINUSE';
    console.error(
      inUse
        ? `\nPort ${port} is already in use (another PipeLab or Vite server?). Stop it, or pick ` +
            `another port: npm start -- --port ${port + 1}`
        : `\nThe dev server could not start: ${e.message}`,
    );
    process.exit(1);
  }
  console.log(`\nPipeLab: open http://localhost:${port}/ (cross-origin isolated: real threads)\n`);
  for (const signal of ['SIGINT', 'SIGTERM'])
    process.on(signal, () => server.close().then(() => process.exit(0)));
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
