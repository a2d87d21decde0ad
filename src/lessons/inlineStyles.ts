// A strict Content-Security-Policy (style-src 'self', no 'unsafe-inline') ignores style=""
// attributes in HTML the page sets through innerHTML, and KaTeX lays formulas out with them. So at
// build time each distinct inline style becomes a class, `ks-<hash>`, and one stylesheet holds the
// rules (the lessons plugin serves it as `virtual:lesson-styles.css`). Pure: the same html gives
// the same classes.

/** FNV-1a, 32 bits, as 7 base-36 digits: short, stable class names. */
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(36).padStart(7, '0');
}

const TAG =
  /<([a-zA-Z][\w:-]*)((?:\s+[^\s=>/]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*(\/?)>/g;
const STYLE_ATTR = /\s+style\s*=\s*"([^"]*)"/;
const CLASS_ATTR = /(\s+class\s*=\s*")([^"]*)"/;

/**
 * Moves every style="…" of `html` into a class; `rules` collects class → declarations.
 * Throws if a style uses single quotes (KaTeX and marked only write double-quoted ones).
 */
export function moveInlineStyles(html: string, rules: Map<string, string>): string {
  return html.replace(TAG, (tag, name: string, attrs: string, selfClosing: string) => {
    const style = STYLE_ATTR.exec(attrs);
    if (!style) {
      if (/\sstyle\s*=/.test(attrs))
        throw new Error(`an inline style this build cannot move: ${tag}`);
      return tag;
    }
    const declarations = style[1].trim();
    const cls = `ks-${hash(declarations)}`;
    rules.set(cls, declarations);
    let rest = attrs.replace(STYLE_ATTR, '');
    rest = CLASS_ATTR.test(rest)
      ? rest.replace(CLASS_ATTR, (_m, head: string, list: string) => `${head}${list} ${cls}"`)
      : `${rest} class="${cls}"`;
    return `<${name}${rest}${selfClosing ? ' /' : ''}>`;
  });
}

/** The stylesheet for the collected rules. An inline style beat every rule of KaTeX's own
 * stylesheet; `!important` keeps it so whatever the selectors' specificity. */
export function inlineStyleSheet(rules: Map<string, string> | Record<string, string>): string {
  const entries = rules instanceof Map ? [...rules] : Object.entries(rules);
  const important = (css: string) =>
    css
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => `${d} !important`)
      .join(';');
  return entries
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([cls, css]) => `.${cls}{${important(css)}}`)
    .join('\n');
}
