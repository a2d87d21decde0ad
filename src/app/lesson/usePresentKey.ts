// On a lesson page, `p` opens the lesson in presenter mode with the same control values (unless the
// visitor is typing into a field).
import { useEffect } from 'react';

export function usePresentKey(href: string | null) {
  useEffect(() => {
    if (!href) return;
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement | null;
      const typing =
        t?.tagName === 'TEXTAREA' ||
        t?.tagName === 'SELECT' ||
        (t?.tagName === 'INPUT' && !['range', 'radio'].includes((t as HTMLInputElement).type));
      if (e.key !== 'p' || typing || e.ctrlKey || e.metaKey || e.altKey) return;
      e.preventDefault();
      location.hash = href;
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [href]);
}
