// The link that reproduces a page: its route with every control written out (defaults too, so the
// link means the same after a lesson's defaults change) and those of the page's own parameters
// that are set now (engine choice, a presenter's step, the shell's embed=1: the link opens the
// page as it is seen), on this site's address. Parameters a page does not know are left behind:
// they are named as errors on the page, so a shared link never carries one.
import type { ControlValues } from '../lessons/controls';
import { routeHash } from './route';

export function shareQuery(
  current: URLSearchParams,
  values: ControlValues,
  pageParams: readonly string[],
): Record<string, string | number> {
  const query: Record<string, string | number> = { ...values };
  for (const name of pageParams) {
    const value = current.get(name);
    if (value !== null && !(name in query)) query[name] = value;
  }
  return query;
}

/** An absolute URL: this site (with its own query, e.g. ?isolation=off) and the route. */
export function permalink(
  site: Pick<Location, 'origin' | 'pathname' | 'search'>,
  path: string,
  query: Record<string, string | number>,
): string {
  return `${site.origin}${site.pathname}${site.search}${routeHash(path, query)}`;
}
