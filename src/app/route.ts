// Hash routes (#/path?query) so every state can be linked and works on any static host.
import { useEffect, useState } from 'react';

export interface Route {
  path: string;
  query: URLSearchParams;
}

/** The route on screen (useRoute): the parsed hash and how the visitor got to it. */
export interface ShownRoute extends Route {
  /** How many times the hash has changed since the app started. The app writes its own URL with
   * replaceState (no hashchange), so every change counted here is the visitor's: a typed URL, a
   * link, back or forward. A page keyed on it starts afresh from the new query, even on the same
   * route (`#/lessons/x` → `#/lessons/x?queue=8`) and even when the new query is the one it
   * started from (the controls may have moved since). */
  visit: number;
}

export function parseRoute(hash: string): Route {
  const body = hash.replace(/^#/, '') || '/';
  const q = body.indexOf('?');
  const path = (q < 0 ? body : body.slice(0, q)) || '/';
  return { path, query: new URLSearchParams(q < 0 ? '' : body.slice(q + 1)) };
}

/** Parameters every route takes, handled by the app shell (`embed=1`: no site chrome, for an
 * iframe); pages never see them, and rewriting a page's query keeps them. */
export const SHELL_PARAMS = ['embed'] as const;

/** The query without the shell's parameters: what a page reads. */
export function pageQuery(query: URLSearchParams): URLSearchParams {
  const q = new URLSearchParams(query);
  for (const p of SHELL_PARAMS) q.delete(p);
  return q;
}

/** The shell's parameters alone. */
export function shellQuery(query: URLSearchParams): URLSearchParams {
  return new URLSearchParams(
    [...query].filter(([key]) => (SHELL_PARAMS as readonly string[]).includes(key)),
  );
}

export function routeHash(path: string, query: Record<string, string | number>): string {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
  return `#${path}${qs ? `?${qs}` : ''}`;
}

/** Rewrites the query of the current route in place (no history entry per slider step), keeping
 * the shell's parameters (an embedded page stays embedded). */
export function replaceQuery(path: string, query: Record<string, string | number>): void {
  history.replaceState(null, '', routeHash(path, withShellParams(query)));
}

/** `query` plus the shell parameters the current URL carries. */
export function withShellParams(
  query: Record<string, string | number>,
): Record<string, string | number> {
  const current = parseRoute(location.hash).query;
  const kept: Record<string, string> = {};
  for (const p of SHELL_PARAMS) {
    const v = current.get(p);
    if (v !== null) kept[p] = v;
  }
  return { ...query, ...kept };
}

/** A lesson's page or its presenter (`/lessons/x`, `/present/x`) at these control values and
 * engine choice, keeping the shell's parameters: the two link to each other as they stand. */
export function lessonHash(
  path: string,
  values: Record<string, string | number>,
  preferSimulation: boolean,
  extra: Record<string, string | number> = {},
): string {
  return routeHash(
    path,
    withShellParams({ ...values, ...(preferSimulation ? { engine: 'simulation' } : {}), ...extra }),
  );
}

/** A link to another page of the site that keeps the shell's parameters (an embedded page's
 * links stay embedded). */
export const shellHref = (path: string): string => routeHash(path, withShellParams({}));

export function useRoute(): ShownRoute {
  const [route, setRoute] = useState<ShownRoute>(() => ({
    ...parseRoute(location.hash),
    visit: 0,
  }));
  useEffect(() => {
    const onChange = () => {
      const next = parseRoute(location.hash); // now: the updater may run later
      setRoute((before) => ({ ...next, visit: before.visit + 1 }));
    };
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return route;
}
