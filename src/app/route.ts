// Hash routes (#/path?query) so every state can be linked and works on any static host.
import { useEffect, useState } from 'react';

export interface Route {
  path: string;
  query: URLSearchParams;
}

export function parseRoute(hash: string): Route {
  const body = hash.replace(/^#/, '') || '/';
  const q = body.indexOf('?');
  const path = (q < 0 ? body : body.slice(0, q)) || '/';
  return { path, query: new URLSearchParams(q < 0 ? '' : body.slice(q + 1)) };
}

export function routeHash(path: string, query: Record<string, string | number>): string {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
  return `#${path}${qs ? `?${qs}` : ''}`;
}

/** Rewrites the query of the current route in place (no history entry per slider step). */
export function replaceQuery(path: string, query: Record<string, string | number>): void {
  history.replaceState(null, '', routeHash(path, query));
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseRoute(location.hash));
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return route;
}
