// Vite plugin for the service worker (sw.ts): builds it as its own entry at the site's root
// (`sw.js`, its scope), and once the whole site is written lists every file of the build with a
// content hash into it — the Workbox precache manifest. A file that changes gets a new revision, so
// a new deployment is a new worker. README pictures are not precached (the site never shows them),
// nor the build's manifest (.vite/manifest.json: read by the load benchmark, never by the site), nor
// KaTeX's .woff and .ttf fonts: its stylesheet names woff2 first, which every browser that runs
// the site's wasm threads reads, so those 876 KB would only cost a phone's first visit.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { Plugin } from 'vite';

export const SW_ENTRY = 'sw';
/** The placeholder string literal in sw.ts, whatever quotes the minifier gave it. */
const PLACEHOLDER = /(["'`])__PIPELAB_PRECACHE_MANIFEST__\1/;
/** Paths (relative to the site) that are not precached. */
const SKIP = [
  /^sw\.js$/,
  /^screenshots\//,
  /\.map$/,
  /(^|\/)current\.json$/,
  /^\.vite\//,
  /^assets\/KaTeX_[\w-]+\.(woff|ttf)$/,
];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

/** [{url, revision}] for every file under `outDir` but the skipped ones, in a stable order. */
export function precacheManifest(outDir: string): Array<{ url: string; revision: string }> {
  return files(outDir)
    .map((f) => relative(outDir, f).split('\\').join('/'))
    .filter((url) => !SKIP.some((re) => re.test(url)))
    .sort()
    .map((url) => ({
      url,
      revision: createHash('sha256')
        .update(readFileSync(join(outDir, url)))
        .digest('hex')
        .slice(0, 16),
    }));
}

export function serviceWorkerPlugin(root: string): Plugin {
  let outDir = '';
  return {
    name: 'pipelab-service-worker',
    apply: 'build',
    config: () => ({
      build: {
        rolldownOptions: {
          input: { index: resolve(root, 'index.html'), [SW_ENTRY]: resolve(root, 'src/sw/sw.ts') },
          output: {
            entryFileNames: (chunk: { name: string }) =>
              chunk.name === SW_ENTRY ? 'sw.js' : 'assets/[name]-[hash].js',
          },
        },
      },
    }),
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const sw = join(outDir, 'sw.js');
      const code = readFileSync(sw, 'utf8');
      if (!PLACEHOLDER.test(code))
        throw new Error(
          'sw.js has no __PIPELAB_PRECACHE_MANIFEST__ to replace: the build changed it',
        );
      const manifest = JSON.stringify(JSON.stringify(precacheManifest(outDir)));
      writeFileSync(sw, code.replace(PLACEHOLDER, manifest));
    },
  };
}
