// Embed mode (`?embed=1` on any route): the page inside a course's iframe. No site chrome; the page
// tells its parent how tall it is (postMessage `{type: 'pipelab:height', height}`) so the iframe can
// grow with it; a link opens the same page in a tab of its own, where it can have real threads.
import { useEffect } from 'react';
import { canUseThreads, threadsUnavailableReason } from '../engine/isolation';
import { pageQuery, parseRoute, routeHash } from './route';

export const HEIGHT_MESSAGE = 'pipelab:height';

/** Reports the document's height to the parent frame whenever it changes. */
export function useReportHeight(active: boolean) {
  useEffect(() => {
    if (!active || window.parent === window) return;
    let last = -1;
    const report = () => {
      const height = Math.ceil(document.documentElement.scrollHeight);
      if (height === last) return;
      last = height;
      window.parent.postMessage({ type: HEIGHT_MESSAGE, height }, '*');
    };
    const observer = new ResizeObserver(report);
    observer.observe(document.body);
    report();
    return () => observer.disconnect();
  }, [active]);
}

/** This page without the embed: the route and query as the URL holds them NOW (the page rewrites
 * its query with replaceState as controls move, which re-renders nothing here). */
export function ownPageHref(): string {
  const { path, query } = parseRoute(location.hash);
  return `${location.pathname}${location.search}${routeHash(path, Object.fromEntries(pageQuery(query)))}`;
}

/** The embedded page's one line: what runs here, and a way out to real threads. */
export function EmbedBar() {
  // The link is brought up to date as a pointer or the keyboard reaches it, before it is followed
  // (or copied): it carries the controls as the student left them.
  const refresh = (e: { currentTarget: HTMLAnchorElement }) => {
    e.currentTarget.href = ownPageHref();
  };
  const threads = canUseThreads();
  // Opened on its own (a shared embed link), the page is not in a frame: say "here".
  const framed = window.parent !== window;
  const where = framed ? 'this frame' : 'this page';
  return (
    <p className="embed-bar" data-testid="embed-bar">
      {threads
        ? `Running on real threads in ${where}. `
        : `${threadsUnavailableReason()}${framed ? ' A frame can be isolated only inside a page that is isolated too.' : ''} So ${where} runs the discrete-event twin, labelled "simulated". `}
      <a
        href={ownPageHref()}
        onPointerDown={refresh}
        onFocus={refresh}
        onMouseEnter={refresh}
        target="_blank"
        rel="noopener"
        data-testid="open-with-threads"
      >
        {threads
          ? framed
            ? 'Open in a tab of its own ↗'
            : 'Open with the site around it ↗'
          : 'Open with real threads in a new tab ↗'}
      </a>
    </p>
  );
}
