// A TeX formula computed on the page (the lesson's prose is rendered at build time; formulas with
// the visitor's numbers in them cannot be). KaTeX is loaded when the first one is shown, so pages
// without one do not carry it; until then the TeX source shows as text. katex.render() builds the
// DOM and sets its layout through element.style (the CSSOM), which a strict CSP allows, where
// renderToString's style="" attributes set through innerHTML would be refused.
import { useEffect, useRef } from 'react';

type Render = (
  tex: string,
  element: HTMLElement,
  options: { throwOnError: boolean; displayMode: boolean },
) => void;
let loaded: Promise<Render> | null = null;

export function Formula({ tex, display = false }: { tex: string; display?: boolean }) {
  const ref = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    let live = true;
    // React gives the span no children: KaTeX (or, until it loads, the source) owns them.
    if (ref.current) ref.current.textContent = tex;
    loaded ??= import('katex').then((k) => k.default.render);
    void loaded.then((render) => {
      if (live && ref.current)
        render(tex, ref.current, { throwOnError: false, displayMode: display });
    });
    return () => {
      live = false;
    };
  }, [tex, display]);
  return <span ref={ref} className={display ? 'formula display' : 'formula'} data-tex={tex} />;
}
