// Scales its content to fit the box it is given (down always; up to `maxScale` on a big screen),
// so a presenter's screen never scrolls at any resolution. Fixed-width content (the stage: panel,
// views, `widthPx`) keeps its layout and shrinks as a whole; flowing text (no width) re-wraps at the
// box's width and shrinks until its height fits too. Where the stylesheet sets `--fit: none` on the
// box (a phone, present.css), it does neither: the content flows at full size and the page scrolls,
// since a whole stage shrunk to a phone's width is too small to read or touch.
// With `giveBackWidth`, fixed-width content limited by the box's height hands the width it does
// not use back to the row: the box's CSS flex-basis is the most it may take, and the box then
// takes only its scaled content's width, so a neighbour with `flex-grow` (the prose beside a tall
// stage on a 16:9 projector) gets the rest instead of a blank strip.
// With `minScale` (a floor: the slides' text must stay readable from the back of a room) the box
// never shrinks its content below it; content that does not fit at the floor is shown at the floor
// and cut, `data-fits="false"` says so and `onFits` tells the page, which tells the presenter.
import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';

/** Flowing text: halvings of the scale's search interval (2^-12 of maxScale: under a pixel). */
const TEXT_FIT_ROUNDS = 12;
/** The smallest scale tried for flowing text. */
const MIN_TEXT_SCALE = 0.05;

export function FitBox(p: {
  children: ReactNode;
  className?: string;
  /** The content's own width (px); without it the content wraps at the box's width. */
  widthPx?: number;
  /** Largest scale (default 1: never enlarge). */
  maxScale?: number;
  /** With widthPx: take only the scaled content's width, up to the CSS flex-basis. */
  giveBackWidth?: boolean;
  /** Flowing content that redraws at whatever width it is given (views that fit their box): its
   * width right now, drawn for the last scale, says nothing about the next, so only its height
   * is fitted. */
  reflows?: boolean;
  /** Smallest scale (default: as small as it takes): below it the content is cut instead. */
  minScale?: number;
  /** Told whether the content fits at a scale of at least minScale, whenever that changes. */
  onFits?: (fits: boolean) => void;
}) {
  const outer = useRef<HTMLDivElement>(null);
  const inner = useRef<HTMLDivElement>(null);
  const [scale, setScale] = useState(1);
  const [fitsAtFloor, setFitsAtFloor] = useState(true);
  const widthPx = p.widthPx;
  const maxScale = p.maxScale ?? 1;
  const minScale = Math.min(maxScale, p.minScale ?? MIN_TEXT_SCALE);
  const onFits = useRef(p.onFits);
  useLayoutEffect(() => {
    onFits.current = p.onFits;
  });
  const giveBack = Boolean(p.giveBackWidth && widthPx);
  const reflows = Boolean(p.reflows);
  useLayoutEffect(() => {
    const fit = () => {
      const o = outer.current;
      const i = inner.current;
      if (!o || !i) return;
      // Measured at the widest the stylesheet allows; set again below once the scale is known.
      if (giveBack) o.style.flexBasis = '';
      if (getComputedStyle(o).getPropertyValue('--fit').trim() === 'none') {
        i.style.width = '';
        setScale(1);
        setFitsAtFloor(true);
        return;
      }
      const w = o.clientWidth;
      const h = o.clientHeight;
      if (widthPx) {
        i.style.width = `${widthPx}px`;
        const fitting = Math.min(
          maxScale,
          w / Math.max(1, i.scrollWidth),
          h / Math.max(1, i.scrollHeight),
        );
        const s = Math.max(minScale, fitting);
        if (giveBack) o.style.flexBasis = `${Math.ceil(i.scrollWidth * s)}px`;
        setScale(s);
        setFitsAtFloor(fitting >= minScale);
        return;
      }
      // Flowing text at scale s wraps at w / s and stands s times its height: the largest s whose
      // layout fits. Smaller scales wrap wider and stand lower, so the search is a bisection. (A
      // fixed-point iteration from s = 1 only ever shrank: at scale s the text box is w / s wide,
      // so its width bound was s itself, and prose ended at half the size that fits.)
      const fits = (s: number) => {
        i.style.width = `${w / s}px`;
        return i.scrollHeight * s <= h && (reflows || i.scrollWidth * s <= w + 1);
      };
      let s = maxScale;
      let fitsHere = true;
      if (!fits(s)) {
        let lo = minScale;
        let hi = maxScale;
        for (let round = 0; round < TEXT_FIT_ROUNDS; round++) {
          const mid = (lo + hi) / 2;
          if (fits(mid)) lo = mid;
          else hi = mid;
        }
        s = lo;
        fitsHere = fits(s);
      }
      setScale(s);
      setFitsAtFloor(fitsHere);
    };
    const observer = new ResizeObserver(fit);
    if (outer.current) observer.observe(outer.current);
    if (inner.current) observer.observe(inner.current);
    // A box that gave width back keeps its size when the row widens: the row must tell it.
    const row = outer.current?.parentElement;
    if (giveBack && row) observer.observe(row);
    fit();
    return () => observer.disconnect();
  }, [widthPx, maxScale, minScale, giveBack, reflows]);
  useEffect(() => onFits.current?.(fitsAtFloor), [fitsAtFloor]);
  return (
    <div
      ref={outer}
      className={`fit-box ${p.className ?? ''}`}
      data-scale={scale.toFixed(3)}
      data-fits={fitsAtFloor ? 'true' : 'false'}
    >
      <div ref={inner} className="fit-box-content" style={{ transform: `scale(${scale})` }}>
        {p.children}
      </div>
    </div>
  );
}
