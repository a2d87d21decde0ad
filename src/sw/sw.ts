// The site's service worker, one worker for two jobs (two cannot control one scope):
// - offline: Workbox precaches every file of the build (the lessons, the wasm modules, the fonts),
//   so after one visit the site works with the network off — a talk in a hall without Wi-Fi; a new
//   deployment is a new worker (the precache list below changes), which installs on the next online
//   visit, takes over at once and makes the page reload onto the new files;
// - cross-origin isolation on hosts that cannot send headers (GitHub Pages, a course server): every
//   response it serves carries COOP/COEP, as the coi-serviceworker package did, so the page can use
//   SharedArrayBuffer and real threads. A page opened with `?isolation=off` is left un-isolated.
// The build writes the precache list in place of PRECACHE_PLACEHOLDER (vite.config.ts).
import { clientsClaim } from 'workbox-core';
import { addPlugins, cleanupOutdatedCaches, precacheAndRoute } from 'workbox-precaching';
import { setDefaultHandler } from 'workbox-routing';
import { NetworkOnly } from 'workbox-strategies';

declare const self: ServiceWorkerGlobalScope;

/** Replaced at build time by the JSON of [{url, revision}] for every file of dist/. */
const PRECACHE_PLACEHOLDER = '__PIPELAB_PRECACHE_MANIFEST__';

const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/** A document opened with ?isolation=off (to see the single-thread fallback) stays un-isolated. */
function wantsIsolation(request: Request): boolean {
  return !(
    request.mode === 'navigate' && new URL(request.url).searchParams.get('isolation') === 'off'
  );
}

/** Adds the isolation headers to whatever Workbox is about to answer. */
const isolate = {
  handlerWillRespond: async ({ request, response }: { request: Request; response: Response }) => {
    if (!wantsIsolation(request) || response.status === 0) return response;
    const headers = new Headers(response.headers);
    for (const [k, v] of Object.entries(ISOLATION_HEADERS)) headers.set(k, v);
    return new Response(response.body, {
      status: response.status,
      statusText: response.statusText,
      headers,
    });
  },
};

self.skipWaiting();
clientsClaim();
cleanupOutdatedCaches();
addPlugins([isolate]);
// The app routes by hash, so a query never names another file: ignore every parameter.
precacheAndRoute(JSON.parse(PRECACHE_PLACEHOLDER), { ignoreURLParametersMatching: [/.*/] });
setDefaultHandler(new NetworkOnly({ plugins: [isolate] }));
