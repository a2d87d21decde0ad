// useKeepFocus: when a re-render removes the focused button of a group (Stop, once a run has
// ended), focus goes to a button that stays (Run) instead of falling to the page's body, so a
// keyboard or screen-reader user keeps their place. Returns the group's onFocus handler.
import { useCallback, useLayoutEffect, useRef, type FocusEvent, type RefObject } from 'react';

/** `shown` changes whenever the group's set of buttons may change (the effect runs then). */
export function useKeepFocus(stays: RefObject<HTMLElement | null>, shown: unknown) {
  const last = useRef<Element | null>(null);
  useLayoutEffect(() => {
    if (last.current === null || last.current.isConnected) return;
    last.current = null;
    // Only when focus fell to nowhere: a user who moved it elsewhere keeps it there.
    if (document.activeElement === null || document.activeElement === document.body)
      stays.current?.focus({ preventScroll: true });
  }, [shown, stays]);
  return useCallback((e: FocusEvent) => {
    last.current = e.target;
  }, []);
}
