// The glossary tip, mounted once for every page: a term marked `data-term` anywhere (lesson prose,
// the presenter, the papers page) shows its definition in a box under it while the pointer is over
// it or while it has keyboard focus; Escape hides it. While it shows, the term is described by the
// box (aria-describedby), so a screen reader reads the definition after the term.
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { GLOSSARY, isTermId, type TermId } from '../../lessons/glossary';
import './glossary.css';

export const TIP_ID = 'glossary-tip';
/** Room kept between the box and the term, and between the box and the window's edges (px). */
const GAP = 6;

interface Shown {
  id: TermId;
  el: HTMLElement;
  /** How it was opened: a hover ends when the pointer leaves, focus when the term loses it. */
  by: 'hover' | 'focus';
}

const termOf = (target: EventTarget | null): HTMLElement | null =>
  target instanceof Element ? (target.closest('[data-term]') as HTMLElement | null) : null;

export function GlossaryTip() {
  const [shown, setShown] = useState<Shown | null>(null);
  const box = useRef<HTMLDivElement>(null);
  // Bumped when the page scrolls: the box is fixed to the window, so it follows its term.
  const [scrolled, setScrolled] = useState(0);

  const show = useCallback((el: HTMLElement, by: Shown['by']) => {
    const id = el.dataset.term ?? '';
    if (isTermId(id)) setShown({ id, el, by });
  }, []);

  useEffect(() => {
    const over = (e: MouseEvent) => {
      const term = termOf(e.target);
      if (term) return show(term, 'hover');
      // The pointer may rest on the box itself (so its text can be read or selected).
      if (box.current?.contains(e.target as Node)) return;
      setShown((s) => (s?.by === 'hover' && document.activeElement !== s.el ? null : s));
    };
    const focusIn = (e: FocusEvent) => {
      const term = termOf(e.target);
      if (term) show(term, 'focus');
      else setShown((s) => (s?.by === 'focus' ? null : s));
    };
    const focusOut = (e: FocusEvent) => {
      if (termOf(e.target) && !termOf(e.relatedTarget))
        setShown((s) => (s?.by === 'focus' ? null : s));
    };
    const key = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setShown(null);
    };
    const away = () => setShown(null);
    let frame = 0;
    const scroll = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => setScrolled((n) => n + 1));
    };
    document.addEventListener('mouseover', over);
    document.addEventListener('focusin', focusIn);
    document.addEventListener('focusout', focusOut);
    document.addEventListener('keydown', key);
    window.addEventListener('resize', away);
    document.addEventListener('scroll', scroll, { capture: true, passive: true });
    return () => {
      cancelAnimationFrame(frame);
      document.removeEventListener('scroll', scroll, { capture: true });
      document.removeEventListener('mouseover', over);
      document.removeEventListener('focusin', focusIn);
      document.removeEventListener('focusout', focusOut);
      document.removeEventListener('keydown', key);
      window.removeEventListener('resize', away);
    };
  }, [show]);

  // The term points at the box while it shows (and at nothing once it is gone).
  useEffect(() => {
    if (!shown) return;
    const { el } = shown;
    el.setAttribute('aria-describedby', TIP_ID);
    return () => el.removeAttribute('aria-describedby');
  }, [shown]);

  // Under the term, inside the window; above it where there is no room below; hidden while the
  // term is scrolled out of the window. Set on the box before it is painted.
  useLayoutEffect(() => {
    const tip = box.current;
    if (!shown || !tip) return;
    const r = shown.el.getBoundingClientRect();
    const b = tip.getBoundingClientRect();
    const left = Math.max(GAP, Math.min(r.left, window.innerWidth - b.width - GAP));
    const below = r.bottom + GAP;
    const top = below + b.height > window.innerHeight - GAP ? r.top - GAP - b.height : below;
    const out = r.bottom < 0 || r.top > window.innerHeight || !shown.el.isConnected;
    tip.style.left = `${left}px`;
    tip.style.top = `${Math.max(GAP, top)}px`;
    tip.style.visibility = out ? 'hidden' : 'visible';
  }, [shown, scrolled]);

  if (!shown) return null;
  const entry = GLOSSARY[shown.id];
  return (
    <div
      ref={box}
      id={TIP_ID}
      role="tooltip"
      className="glossary-tip"
      data-testid="glossary-tip"
      data-for-term={shown.id}
    >
      <strong>{entry.name}</strong>: {entry.definition}
    </div>
  );
}
