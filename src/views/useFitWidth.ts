// A view's drawing width: the width its caller asks for, or less when the box it sits in is
// narrower (a 390 px phone, a ~640 px course column), so a view reflows to its box instead of
// scrolling sideways. Read from the element's parent (a block box, whose width does not depend on
// what it holds) and followed as that box resizes. On the server and before the first layout the
// asked width stands, so static markup and tests draw at the width they name.
import { useLayoutEffect, useRef, useState } from 'react';

/** Narrower than this a view would be unreadable: it keeps this width and its box scrolls. */
export const MIN_VIEW_WIDTH_PX = 280;

export function useFitWidth<E extends Element>(maxPx: number) {
  const ref = useRef<E>(null);
  const [boxPx, setBoxPx] = useState<number | null>(null);
  useLayoutEffect(() => {
    const box = ref.current?.parentElement;
    if (!box || typeof ResizeObserver === 'undefined') return;
    const read = () => {
      const style = getComputedStyle(box);
      const inner =
        box.clientWidth -
        parseFloat(style.paddingLeft || '0') -
        parseFloat(style.paddingRight || '0');
      // Whole pixels, so sub-pixel jitter does not redraw the view.
      setBoxPx(inner > 0 ? Math.floor(inner) : null);
    };
    const observer = new ResizeObserver(read);
    observer.observe(box);
    read();
    return () => observer.disconnect();
  }, []);
  const width =
    boxPx === null || !(maxPx > 0)
      ? maxPx
      : Math.max(Math.min(maxPx, MIN_VIEW_WIDTH_PX), Math.min(maxPx, boxPx));
  return [ref, width] as const;
}
