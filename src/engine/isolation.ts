// Which engine this page can run: real threads need a cross-origin isolated page (SharedArrayBuffer),
// and how many cores the visitor's machine offers them.

/** The visitor's logical cores (2 when the browser does not say). */
export function visitorCores(scope: typeof globalThis = globalThis): number {
  return scope.navigator?.hardwareConcurrency || 2;
}

export function canUseThreads(scope: typeof globalThis = globalThis): boolean {
  return scope.crossOriginIsolated === true && typeof SharedArrayBuffer === 'function';
}

/** Why threads are unavailable, in words for the page (null when they are available). */
export function threadsUnavailableReason(scope: typeof globalThis = globalThis): string | null {
  if (canUseThreads(scope)) return null;
  if (typeof SharedArrayBuffer !== 'function')
    return 'This page is not cross-origin isolated, so the browser withholds SharedArrayBuffer and WebAssembly threads.';
  return 'This page is not cross-origin isolated (COOP/COEP headers missing), so WebAssembly threads are unavailable.';
}
