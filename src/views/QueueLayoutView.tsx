// Where a queue's fields sit in its first cache lines, from the C++ object's real offsets
// (pl_queue_layout): one row of 64 bytes per line, each field a block coloured by the thread that
// writes it (producer, consumer, both, or nobody once built), and a line that holds fields two
// different cores write framed in red: the false sharing the padded layout removes. (A line one
// core writes and the other only reads, such as each of Lamport's indices, is not framed.) D3
// computes the byte scale; React renders the marks.
import { scaleLinear } from 'd3';
import type { QueueLayout } from '../spec/raceConfig';
import './queueViews.css';
import { fitted } from './fitWidth';

export interface QueueLayoutViewProps {
  layout: QueueLayout;
  title: string;
  /** Width of the drawing, px. */
  widthPx?: number;
}

const LABEL_PX = 70;
const LINE_PX = 30;
const TITLE_PX = 22;

interface Placed {
  name: string;
  writer: QueueLayout['fields'][number]['writer'];
  line: number;
  from: number;
  to: number;
}

/** Each field cut at line boundaries; lines past the last field are not drawn. */
export function placeFields(layout: QueueLayout): Placed[] {
  const out: Placed[] = [];
  for (const f of layout.fields) {
    for (let at = f.offset; at < f.offset + f.bytes;) {
      const line = Math.floor(at / layout.lineBytes);
      const end = Math.min(f.offset + f.bytes, (line + 1) * layout.lineBytes);
      out.push({
        name: f.name,
        writer: f.writer,
        line,
        from: at - line * layout.lineBytes,
        to: end - line * layout.lineBytes,
      });
      at = end;
    }
  }
  return out;
}

/** A line is shared when fields of it are written by both sides (the flag counts as both). */
export function sharedLines(placed: Placed[]): Set<number> {
  const writers = new Map<number, Set<string>>();
  for (const p of placed) {
    if (p.writer === 'none') continue;
    const set = writers.get(p.line) ?? new Set<string>();
    for (const w of p.writer === 'both' ? ['producer', 'consumer'] : [p.writer]) set.add(w);
    writers.set(p.line, set);
  }
  return new Set([...writers].filter(([, w]) => w.size > 1).map(([line]) => line));
}

function QueueLayoutViewDrawing({ layout, title, widthPx = 440 }: QueueLayoutViewProps) {
  const placed = placeFields(layout);
  const shared = sharedLines(placed);
  const lines = Math.max(...placed.map((p) => p.line)) + 1;
  const x = scaleLinear()
    .domain([0, layout.lineBytes])
    .range([LABEL_PX, widthPx - 8]);
  return (
    <svg
      className="queue-layout"
      width={widthPx}
      height={TITLE_PX + lines * LINE_PX + 6}
      role="img"
      data-testid="queue-layout"
      data-shared-lines={shared.size}
      aria-label={`${title}: ${lines} cache lines, ${shared.size} written by both cores`}
    >
      <text x={0} y={15} className="row-label">
        {title}
      </text>
      {Array.from({ length: lines }, (_, line) => (
        <g key={line} transform={`translate(0,${TITLE_PX + line * LINE_PX})`}>
          <text x={0} y={LINE_PX / 2 + 4}>
            line {line}
          </text>
          <rect
            x={x(0)}
            y={2}
            width={x(layout.lineBytes) - x(0)}
            height={LINE_PX - 4}
            className={`line-frame ${shared.has(line) ? 'shared' : ''}`}
            data-shared={shared.has(line)}
          />
        </g>
      ))}
      {placed.map((p, i) => (
        <rect
          key={i}
          x={x(p.from)}
          y={TITLE_PX + p.line * LINE_PX + 4}
          width={Math.max(2, x(p.to) - x(p.from))}
          height={LINE_PX - 8}
          className={`field ${p.writer}-fill`}
          data-writer={p.writer}
        >
          <title>{`${p.name}: bytes ${p.from}..${p.to - 1} of line ${p.line}, written by ${p.writer}`}</title>
        </rect>
      ))}
    </svg>
  );
}

/** At most as wide as its box (fitWidth.tsx): a phone or a course column reflows it. */
export const QueueLayoutView = fitted(QueueLayoutViewDrawing, 'widthPx', 440);
