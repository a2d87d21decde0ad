// A view's drawing width: the width its caller asks for, or less when the box it is drawn in is
// narrower (a 390 px phone, a ~640 px course column), so a view reflows to its box instead of
// scrolling sideways. `fitted` wraps a view in a block box that takes its container's width, reads
// that width (following it as it resizes) and draws the view at the smaller of the two. On the
// server and before the first layout the asked width stands, so static markup and unit tests draw
// at the width they name. A width of zero or less draws nothing (and says nothing).
import { useLayoutEffect, useRef, useState, type ComponentType } from 'react';

/** Narrower than this a view is unreadable: it keeps this width and its box scrolls instead. */
export const MIN_VIEW_WIDTH_PX = 280;

/** The width to draw at: `askedPx` when the box is wider or unknown, else the box's width. */
export function fitWidth(askedPx: number, boxPx: number | null): number {
  if (boxPx === null || boxPx <= 0) return askedPx;
  return Math.min(askedPx, Math.max(boxPx, Math.min(askedPx, MIN_VIEW_WIDTH_PX)));
}

/** A ref for a block element, and the width to draw at inside it. */
export function useFitWidth<E extends HTMLElement>(askedPx: number) {
  const ref = useRef<E>(null);
  const [boxPx, setBoxPx] = useState<number | null>(null);
  useLayoutEffect(() => {
    const box = ref.current;
    if (!box || typeof ResizeObserver === 'undefined') return;
    // Whole pixels, so sub-pixel jitter does not redraw the view.
    const read = () => setBoxPx(Math.floor(box.clientWidth) || null);
    const observer = new ResizeObserver(read);
    observer.observe(box);
    read();
    return () => observer.disconnect();
  }, []);
  return [ref, fitWidth(askedPx, boxPx)] as const;
}

/** `View` drawn at most as wide as its box; `prop` names its width prop, `defaultPx` its default. */
export function fitted<P extends object, K extends keyof P & string>(
  View: ComponentType<P>,
  prop: K,
  defaultPx: number,
): ComponentType<P> {
  function Fitted(props: P) {
    const asked = (props[prop] as number | undefined) ?? defaultPx;
    const [ref, width] = useFitWidth<HTMLDivElement>(asked);
    if (!(asked > 0)) return null;
    return (
      <div ref={ref} className="view-fit">
        <View {...props} {...{ [prop]: width }} />
      </div>
    );
  }
  Fitted.displayName = `Fitted(${View.displayName ?? View.name})`;
  return Fitted;
}
