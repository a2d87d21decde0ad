// Registers the site's service worker (src/sw/sw.ts: offline and cross-origin isolation) in the
// production build, and reloads the page when it must: once when a worker first takes control of a
// page that is not yet isolated (a host without COOP/COEP headers), and when a new deployment's
// worker takes over (so the page runs the new files). The dev server sends the headers itself and
// registers nothing.
const RELOADED_FOR_ISOLATION = 'pipelab:reloaded-for-isolation';

export function startServiceWorker(scope: typeof globalThis = globalThis): void {
  const nav = scope.navigator;
  if (!('serviceWorker' in nav) || scope.location.protocol === 'file:') return;
  const optedOut = new URLSearchParams(scope.location.search).get('isolation') === 'off';
  // In an iframe the page can only be isolated if its parent is: reloading would not help.
  const topLevel = scope.self === scope.top;

  // A worker already controls this page (a return visit) but the page is not isolated: its first
  // load came before the worker. One reload per session, so a page that cannot be isolated never
  // loops.
  if (
    !scope.crossOriginIsolated &&
    nav.serviceWorker.controller &&
    !optedOut &&
    topLevel &&
    !scope.sessionStorage.getItem(RELOADED_FOR_ISOLATION)
  ) {
    scope.sessionStorage.setItem(RELOADED_FOR_ISOLATION, '1');
    scope.location.reload();
    return;
  }

  // A worker took control: the first one on this page (isolation: reload unless already isolated),
  // or a new deployment's (reload onto its files). Listened to from the start, not once the
  // registration resolves: a new worker found by the browser's own check after the navigation
  // queues register() behind its install, and can claim the page in the same task that resolves
  // it — a listener added then missed the change and the page stayed on the old files (an e2e run
  // waited 30 s for a reload that never came).
  let controlled = nav.serviceWorker.controller !== null;
  nav.serviceWorker.addEventListener('controllerchange', () => {
    const isUpdate = controlled;
    controlled = true;
    if (isUpdate || (!scope.crossOriginIsolated && !optedOut && topLevel)) scope.location.reload();
  });
  // Registered once the page has loaded, so the worker's precache does not compete with the page's
  // own files. Then sw.js is asked for now rather than left to the browser: its own check after a
  // navigation can come late on a busy machine, and a presenter who reloads once before a talk
  // should get the new deployment. Offline the check fails, which changes nothing: the cached
  // worker keeps serving.
  // A browser may refuse the worker outright: a frame on another site (a course page embedding a
  // lesson) is "denied permission" in Chromium, as is a private window in some browsers. The page
  // then runs as it is (the twin in a frame that is not isolated, with the reason on screen) and
  // has no offline copy; the refusal is not an error of the page.
  const register = () =>
    void nav.serviceWorker
      .register('./sw.js', { type: 'module' })
      .then((registration) => registration.update().catch(() => {}))
      .catch(() => {});
  if (scope.document.readyState === 'complete') register();
  else scope.addEventListener('load', register, { once: true });
}
