// Run brings the run's live views into sight (issue 39): at 1280×720 the pipeline and the timeline
// started about 500 px below the Run button, so a reader pressed Run and saw only numbers. When Run
// starts a run, the page scrolls down just enough to show the live views placed after the
// experiment panel (up to the next section), but never past the Run button, which keeps the focus
// in sight; a reader who scrolled them into sight already sees no movement.
import { useEffect, type RefObject } from 'react';

/** Room kept above the Run button and below the views, px. */
const MARGIN_PX = 8;

export function useRunInSight(root: RefObject<HTMLElement | null>, reducedMotion: boolean): void {
  useEffect(() => {
    const main = root.current;
    if (!main) return;
    const onClick = (e: MouseEvent) => {
      const run = (e.target as Element | null)?.closest?.('[data-testid=run]');
      if (!run || !main.contains(run)) return;
      // After the click's re-render: the button says Pause, the numbers have their rows.
      requestAnimationFrame(() => requestAnimationFrame(() => bringIntoSight(run, reducedMotion)));
    };
    main.addEventListener('click', onClick);
    return () => main.removeEventListener('click', onClick);
  }, [root, reducedMotion]);
}

/** The slots of live views after the experiment panel holding `run`, up to the next heading. */
export function liveViewsAfter(run: Element): Element[] {
  const panel = run.closest('.slot');
  const views: Element[] = [];
  for (let e = panel?.nextElementSibling; e; e = e.nextElementSibling) {
    if (e.matches('h2, :has(h2)')) break;
    if (e.matches('.slot')) views.push(e);
  }
  return views;
}

function bringIntoSight(run: Element, reducedMotion: boolean): void {
  const views = liveViewsAfter(run);
  if (views.length === 0) return;
  const bottom = Math.max(...views.map((v) => v.getBoundingClientRect().bottom));
  const runTop = run.getBoundingClientRect().top;
  const below = bottom + MARGIN_PX - window.innerHeight;
  const by = Math.min(below, runTop - MARGIN_PX);
  if (by > 0) window.scrollBy({ top: by, behavior: reducedMotion ? 'auto' : 'smooth' });
}
