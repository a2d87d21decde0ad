// The visitor's `prefers-reduced-motion` setting, live. Under it the pages redraw their moving
// views (timelines, boxes, arrows, bars) at most once a second, while the numbers still update
// every frame.
import { useEffect, useState } from 'react';

const QUERY = '(prefers-reduced-motion: reduce)';
/** How often moving views redraw when the visitor asked for less motion. */
export const REDUCED_MOTION_REFRESH_MS = 1000;

export function prefersReducedMotion(scope: typeof globalThis = globalThis): boolean {
  return scope.matchMedia?.(QUERY).matches ?? false;
}

export function useReducedMotion(): boolean {
  const [reduced, setReduced] = useState(() => prefersReducedMotion());
  useEffect(() => {
    const list = globalThis.matchMedia?.(QUERY);
    if (!list) return;
    const onChange = () => setReduced(list.matches);
    list.addEventListener('change', onChange);
    return () => list.removeEventListener('change', onChange);
  }, []);
  return reduced;
}
