// A TeX formula computed on the page (the lesson's prose is rendered at build time; formulas with
// the visitor's numbers in them cannot be). KaTeX is loaded when the first one is shown, so pages
// without one do not carry it; until then the TeX source shows as text.
import { useEffect, useState } from 'react';

type Render = (tex: string, options: { throwOnError: boolean; displayMode: boolean }) => string;
let loaded: Promise<Render> | null = null;

export function Formula({ tex, display = false }: { tex: string; display?: boolean }) {
  const [render, setRender] = useState<Render | null>(null);
  useEffect(() => {
    let live = true;
    loaded ??= import('katex').then((k) => k.default.renderToString);
    void loaded.then((r) => live && setRender(() => r));
    return () => {
      live = false;
    };
  }, []);
  if (!render) return <code className="formula-source">{tex}</code>;
  return (
    <span
      className={display ? 'formula display' : 'formula'}
      data-tex={tex}
      dangerouslySetInnerHTML={{
        __html: render(tex, { throwOnError: false, displayMode: display }),
      }}
    />
  );
}
