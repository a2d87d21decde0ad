// The whole app mounted in a DOM (happy-dom) at a hash route, for what a page does with its URL:
// the messages naming bad values, the values it falls back to, the routes and links it shows, a
// hash typed on the same route. No browser and no engine runs here: the engines' Workers are
// inert stand-ins (a page in happy-dom is never cross-origin isolated, so lessons pick the twin),
// and what only a browser can show (layout, real threads, wasm) stays in tests/e2e.
// A test file using this starts with `// @vitest-environment happy-dom`.
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { App } from '../../../src/app/App';
import { preloadComponents } from '../../../src/app/lesson/registry';
import { COMPONENT_NAMES } from '../../../src/lessons/components';

// happy-dom fires hashchange after history.replaceState when the hash changes; a browser does not
// (and the app rewrites its own URL with replaceState, counting every hashchange as the visitor's:
// src/app/route.ts). Those events are stopped here before the app sees them.
const replacedTo = new Set<string>();
const replaceState = history.replaceState.bind(history);
history.replaceState = (state: unknown, unused: string, url?: string | URL | null) => {
  replaceState(state, unused, url);
  replacedTo.add(location.href);
};
window.addEventListener(
  'hashchange',
  (e) => {
    if (replacedTo.delete(e.newURL)) e.stopImmediatePropagation();
  },
  true,
);

/** A Worker that takes messages and never answers: pages that start an engine on mount (the
 * counting page) stay loading, with their controls and messages drawn. */
class InertWorker {
  onmessage = null;
  onerror = null;
  postMessage() {}
  terminate() {}
  addEventListener() {}
  removeEventListener() {}
}
(globalThis as { Worker?: unknown }).Worker = InertWorker;

export interface ShownPage {
  /** The app's root element. */
  root: HTMLElement;
  /** The text of every role=alert on the page, in order. */
  alerts(): string[];
  /** The element with this data-testid (throws naming it when there is none). */
  testId(id: string): HTMLElement;
  /** A lesson control's input (`input[data-control=<id>]`), or its checked radio for a choice. */
  control(id: string): HTMLInputElement;
  /** Sets `location.hash` as a visitor typing a URL does (a hashchange), and waits for the page
   * drawn afresh. */
  typeHash(hash: string): Promise<void>;
  /** Sets an input's value as typing does (React's onChange), and lets React draw. */
  setValue(input: HTMLInputElement, value: string): Promise<void>;
  /** Unmounts the app. */
  close(): Promise<void>;
}

/** Lets React commit what is scheduled and run its effects (two turns of the event loop). Not
 * act(): it waits until no update is pending, and a live view's frame loop (the counting page's)
 * always has one. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 2; i++) await new Promise((r) => setTimeout(r, 0));
}

/** Waits until `ready()` holds, checking every 50 ms; throws naming `what` after `timeoutMs`.
 * (expect.poll never saw the twin's frames land under happy-dom.) */
export async function until(ready: () => boolean, what: string, timeoutMs = 30_000) {
  const end = Date.now() + timeoutMs;
  while (!ready()) {
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Waits while the route's code loads (src/app/pages.tsx: its frame says page-loading). */
async function routeLoaded(root: HTMLElement) {
  await until(() => !root.querySelector('[data-testid=page-loading]'), "the route's code");
  await settle();
}

/** Mounts the app at `hash` (e.g. `#/lessons/x?queue=0`). `isolated`: the page says it is
 * cross-origin isolated (so lessons choose real threads where they can; no engine starts before
 * a run); `cores`: navigator.hardwareConcurrency (happy-dom's is 8). */
export async function openPage(
  hash: string,
  { isolated = false, cores = 8 }: { isolated?: boolean; cores?: number } = {},
): Promise<ShownPage> {
  Object.defineProperty(window, 'crossOriginIsolated', { value: isolated, configurable: true });
  Object.defineProperty(navigator, 'hardwareConcurrency', { value: cores, configurable: true });
  history.replaceState(null, '', hash);
  const root = document.createElement('div');
  root.id = 'root';
  document.body.replaceChildren(root);
  const react = createRoot(root);
  // Every lesson component loaded first (each is a chunk of its own: registry.ts), so a page
  // draws whole once its route has loaded.
  await preloadComponents(COMPONENT_NAMES);
  flushSync(() => react.render(<App />));
  await settle();
  await routeLoaded(root);
  const page: ShownPage = {
    root,
    alerts: () => [...root.querySelectorAll('[role=alert]')].map((a) => a.textContent ?? ''),
    testId(id) {
      const el = root.querySelector<HTMLElement>(`[data-testid="${id}"]`);
      if (!el) throw new Error(`no [data-testid=${id}] on the page`);
      return el;
    },
    control(id) {
      const el =
        root.querySelector<HTMLInputElement>(`input[data-control="${id}"]`) ??
        root.querySelector<HTMLInputElement>(`[data-control="${id}"] input:checked`);
      if (!el) throw new Error(`no control ${id} on the page`);
      return el;
    },
    async typeHash(next) {
      // A typed URL starts the page afresh (App keys it on the visit): wait for the new one.
      const shown = () => root.querySelector('main, [data-testid=present]');
      const before = shown();
      location.hash = next;
      await until(() => shown() !== before, `the page at ${next}`);
      await routeLoaded(root);
      await settle();
    },
    async setValue(input, value) {
      const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
      setter.call(input, value);
      input.dispatchEvent(new Event('input', { bubbles: true }));
      input.dispatchEvent(new Event('change', { bubbles: true }));
      await settle();
    },
    async close() {
      react.unmount();
      root.remove();
    },
  };
  return page;
}
