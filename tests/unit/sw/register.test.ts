// The page side of the service worker (src/app/serviceWorker.ts) against a fake window: when it
// registers, and when a worker taking control reloads the page — including a new deployment's
// worker that claims the page before register() has resolved (the race an e2e run lost).
import { describe, expect, test, vi } from 'vitest';
import { startServiceWorker } from '../../../src/app/serviceWorker';

interface Options {
  controlled?: boolean;
  isolated?: boolean;
  loaded?: boolean;
  search?: string;
  inFrame?: boolean;
  refused?: boolean;
  /** The tab's sessionStorage, to share between two loads. */
  session?: Map<string, string>;
}

/** A window with a service-worker container whose register() resolves only when told to. */
function fakeWindow(o: Options = {}) {
  const container = Object.assign(new EventTarget(), {
    controller: o.controlled ? {} : null,
    register: vi.fn(),
  });
  const update = vi.fn(() => Promise.resolve());
  let settle = () => {};
  container.register.mockImplementation(
    () =>
      new Promise((resolve, reject) => {
        settle = () => (o.refused ? reject(new Error('denied permission')) : resolve({ update }));
      }),
  );
  const session = o.session ?? new Map<string, string>();
  const win = Object.assign(new EventTarget(), {
    navigator: { serviceWorker: container },
    location: { protocol: 'https:', search: o.search ?? '', reload: vi.fn() },
    crossOriginIsolated: o.isolated ?? false,
    sessionStorage: {
      getItem: (k: string) => session.get(k) ?? null,
      setItem: (k: string, v: string) => void session.set(k, v),
    },
    document: { readyState: o.loaded === false ? 'loading' : 'complete' },
    self: {},
    top: {},
  });
  if (!o.inFrame) win.top = win.self;
  const claim = () => container.dispatchEvent(new Event('controllerchange'));
  const registered = async () => {
    settle();
    await new Promise((r) => setTimeout(r, 0));
  };
  startServiceWorker(win as unknown as typeof globalThis);
  return { win, container, update, claim, registered, reload: win.location.reload };
}

describe('the service worker on the page', () => {
  test("a new deployment's worker that claims the page before register() resolves reloads it", async () => {
    const w = fakeWindow({ controlled: true, isolated: true });
    w.claim();
    expect(w.reload).toHaveBeenCalledTimes(1);
    await w.registered();
  });

  test('the first worker on an isolated page leaves it; a later one (a new deployment) reloads', () => {
    const w = fakeWindow({ isolated: true });
    w.claim();
    expect(w.reload).not.toHaveBeenCalled();
    w.claim();
    expect(w.reload).toHaveBeenCalledTimes(1);
  });

  test.each<[string, Options, number]>([
    ['a page that is not isolated: reloaded to be', {}, 1],
    ['?isolation=off: left as it is', { search: '?isolation=off' }, 0],
    ['a frame (only its parent can isolate it): left as it is', { inFrame: true }, 0],
  ])('the first worker on %s', (_name, options, reloads) => {
    const w = fakeWindow(options);
    w.claim();
    expect(w.reload).toHaveBeenCalledTimes(reloads);
  });

  test('a return visit that is not isolated reloads once per session, without registering', () => {
    const session = new Map<string, string>();
    const first = fakeWindow({ controlled: true, session });
    expect(first.reload).toHaveBeenCalledTimes(1);
    expect(first.container.register).not.toHaveBeenCalled();
    // The reloaded page is still not isolated (the browser would not): it runs as it is.
    const again = fakeWindow({ controlled: true, session });
    expect(again.reload).not.toHaveBeenCalled();
    expect(again.container.register).toHaveBeenCalled();
  });

  test('registers once the page has loaded, then asks for sw.js at once', async () => {
    const w = fakeWindow({ loaded: false });
    expect(w.container.register).not.toHaveBeenCalled();
    w.win.dispatchEvent(new Event('load'));
    expect(w.container.register).toHaveBeenCalledWith('./sw.js', { type: 'module' });
    await w.registered();
    expect(w.update).toHaveBeenCalledTimes(1);
  });

  test('a browser that refuses the worker is not an error of the page', async () => {
    const w = fakeWindow({ refused: true });
    await w.registered();
    expect(w.update).not.toHaveBeenCalled();
    expect(w.reload).not.toHaveBeenCalled();
  });
});
