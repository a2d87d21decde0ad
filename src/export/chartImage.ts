// A chart on the page as an image file: its own SVG markup with every element's computed style
// written in as presentation attributes (colours, strokes, dashes, fonts — which the page gives
// through CSS classes and variables), a background, and a title and description saying what it
// shows — the title also drawn as a heading above the chart, since an image viewer shows no <title>
// and a PNG pasted into slides would otherwise not say what it is — so the file draws the same
// anywhere; and a PNG rendered from that same file. Attributes,
// not style="": a strict Content-Security-Policy refuses style attributes set from script.

/** SVG presentation properties the charts' CSS sets (each is also a presentation attribute). */
const STYLE_PROPERTIES = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-dasharray',
  'stroke-opacity',
  'stroke-linecap',
  'opacity',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'text-anchor',
  'dominant-baseline',
  'visibility',
];

const SVG_NS = 'http://www.w3.org/2000/svg';

/** The first non-transparent background at or above `el` (white when none is). */
function backgroundOf(el: Element | null): string {
  for (let at = el; at; at = at.parentElement) {
    const bg = getComputedStyle(at).backgroundColor;
    if (bg && bg !== 'transparent' && !/rgba\(.*,\s*0\)$/.test(bg)) return bg;
  }
  return '#ffffff';
}

/** The heading's lines: the first bold, each this many px apart. */
const HEADING_LINE_PX = 18;
const HEADING_PAD_PX = 8;

export function standaloneSvg(
  svg: SVGSVGElement,
  about: { title: string; description: string; heading: string[] },
): { text: string; width: number; height: number } {
  const copy = svg.cloneNode(true) as SVGSVGElement;
  const originals = [svg, ...svg.querySelectorAll('*')];
  const copies = [copy, ...copy.querySelectorAll('*')];
  const computed = new Map(originals.map((el) => [el, getComputedStyle(el)]));
  originals.forEach((el, i) => {
    const own = computed.get(el)!;
    const parent = el === svg ? null : computed.get(el.parentElement!);
    // Inherited values flow from the parent in the file too: write only what differs (opacity is
    // not inherited, so it is written wherever it is not 1). A computed value replaces the
    // element's own attribute, which may name a CSS variable the file does not have.
    for (const p of STYLE_PROPERTIES) {
      const value = own.getPropertyValue(p);
      const differs =
        p === 'opacity' ? value !== '1' : !parent || value !== parent.getPropertyValue(p);
      if (differs) copies[i].setAttribute(p, value);
    }
  });
  const width = svg.width.baseVal.value;
  const headingPx = about.heading.length
    ? HEADING_PAD_PX * 2 + HEADING_LINE_PX * about.heading.length
    : 0;
  const height = svg.height.baseVal.value + headingPx;
  // The chart moves down under the heading, whole.
  const chart = document.createElementNS(SVG_NS, 'g');
  chart.setAttribute('transform', `translate(0,${headingPx})`);
  chart.append(...copy.childNodes);
  const heading = about.heading.map((line, i) => {
    const text = document.createElementNS(SVG_NS, 'text');
    text.setAttribute('x', '12');
    text.setAttribute('y', String(HEADING_PAD_PX + HEADING_LINE_PX * (i + 1) - 4));
    text.setAttribute('font-family', computed.get(svg)!.getPropertyValue('font-family'));
    text.setAttribute('font-size', i === 0 ? '15' : '12');
    if (i === 0) text.setAttribute('font-weight', 'bold');
    text.setAttribute('fill', computed.get(svg)!.getPropertyValue('color'));
    text.textContent = line;
    return text;
  });
  copy.setAttribute('xmlns', SVG_NS);
  copy.setAttribute('width', String(width));
  copy.setAttribute('height', String(height));
  copy.setAttribute('viewBox', `0 0 ${width} ${height}`);
  const background = document.createElementNS(SVG_NS, 'rect');
  background.setAttribute('width', String(width));
  background.setAttribute('height', String(height));
  background.setAttribute('fill', backgroundOf(svg));
  const title = document.createElementNS(SVG_NS, 'title');
  title.textContent = about.title;
  const desc = document.createElementNS(SVG_NS, 'desc');
  desc.textContent = about.description;
  copy.append(title, desc, background, ...heading, chart);
  const text = `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(copy)}\n`;
  return { text, width, height };
}

/** The standalone SVG drawn into a PNG at `scale` × its size (2: sharp on a projector). */
export async function svgToPng(
  svgText: string,
  widthPx: number,
  heightPx: number,
  scale = 2,
): Promise<Blob> {
  const image = new Image();
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svgText)}`;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(widthPx * scale);
  canvas.height = Math.round(heightPx * scale);
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('this browser gave no 2D canvas to draw the PNG on');
  ctx.drawImage(image, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('this browser could not encode a PNG'))),
      'image/png',
    ),
  );
}
