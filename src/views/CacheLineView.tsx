// BatchQueue as cache lines, driven by the real queue's indices (live/batchQueueState.ts): the two
// semi-buffers as rows of 64-byte lines, each slot filled when the producer writes it and hollow
// once the consumer has read it; the line's frame says which core touched it last; the `status`
// flag and who wrote it last; where the producer and the consumer are; and the live counts of
// `status` flips and of lines handed between the two cores per item.
// D3 is not needed here (the scale is a division); React renders the marks.
import type { BatchQueueSnapshot, CoreSide } from '../live/batchQueueState';
import './queueViews.css';
import { fitted } from './fitWidth';

export interface CacheLineViewProps {
  state: BatchQueueSnapshot;
  /** Width of the drawing, px. */
  widthPx?: number;
  /** Set once the indices come from a run (real threads only: the twin does not model
   * BatchQueue); unset for the empty queue drawn before a run. */
  kind?: 'measured';
}

const LABEL_PX = 200;
const ROW_PX = 58;
const LINE_GAP_PX = 4;
const TOP_PX = 44;

type SlotState = 'empty' | 'written' | 'read';

function slotState(s: BatchQueueSnapshot, half: 0 | 1, slot: number): SlotState {
  const h = s.halves[half];
  if (slot < h.read) return 'read';
  if (slot < h.written && (h.published === null || slot < h.published)) return 'written';
  return 'empty';
}

function halfCaption(s: BatchQueueSnapshot, half: 0 | 1): string {
  const h = s.halves[half];
  if (h.published !== null)
    return `handed over: ${h.read} of ${h.published} read${h.flushed ? ' (flush)' : ''}`;
  if (s.producer.half === half) return `being filled: ${h.written} of ${s.semiItems}`;
  return 'empty';
}

const sideName = (side: CoreSide | null) => side ?? 'nobody yet';

function CacheLineViewDrawing({ state: s, widthPx = 900, kind }: CacheLineViewProps) {
  const linePx = Math.max(
    6,
    Math.min(120, (widthPx - LABEL_PX - 10) / s.linesPerSemi - LINE_GAP_PX),
  );
  const slotPx = linePx / s.itemsPerLine;
  const drawSlots = slotPx >= 4;
  const lineX = (line: number) => LABEL_PX + line * (linePx + LINE_GAP_PX);
  const slotX = (slot: number) =>
    lineX(Math.floor(slot / s.itemsPerLine)) + (slot % s.itemsPerLine) * slotPx;
  const rowY = (half: number) => TOP_PX + half * ROW_PX;
  const stateY = rowY(2) + 8;
  const heightPx = stateY + 100;
  const per = (x: number) => (s.itemsRead > 0 ? x.toFixed(2) : '—');
  return (
    <svg
      className="cacheline-view"
      width={widthPx}
      height={heightPx}
      role="img"
      data-testid="cacheline-view"
      data-kind={kind}
      data-status={String(s.status)}
      data-flips={s.flips}
      data-items-written={s.itemsWritten}
      data-items-read={s.itemsRead}
      data-producer={`${s.producer.half}:${s.producer.next}`}
      data-consumer={`${s.consumer.half}:${s.consumer.next}`}
      aria-label={`BatchQueue: ${s.linesPerSemi} cache lines per semi-buffer, status ${s.status}, ${s.flips} flips, ${s.itemsRead} items read`}
    >
      <text x={0} y={18} className="state-label">
        status
      </text>
      <rect
        x={60}
        y={5}
        width={18}
        height={18}
        className={`flag-box ${s.status ? 'on' : 'off'}`}
        data-testid="status-flag"
      />
      <text x={86} y={18} className="state-label">
        {s.status
          ? 'true: a semi-buffer is handed to the consumer'
          : 'false: the consumer holds none'}
        {' — last written by '}
        {sideName(s.statusWriter)}
      </text>
      {([0, 1] as const).map((half) => (
        <g key={half} data-testid="semi-buffer" data-half={half}>
          <text x={0} y={rowY(half) + 20} className="row-label">
            semi-buffer {half}
          </text>
          <text
            x={0}
            y={rowY(half) + 38}
            className={s.halves[half].published !== null ? 'published' : ''}
          >
            {halfCaption(s, half)}
          </text>
          {Array.from({ length: s.linesPerSemi }, (_, line) => {
            const holder = s.lineHolder[half][line];
            const first = line * s.itemsPerLine;
            const slots = Array.from(
              { length: Math.min(s.itemsPerLine, s.semiItems - first) },
              (_, k) => first + k,
            );
            const states = slots.map((slot) => slotState(s, half, slot));
            const summary = states.includes('written')
              ? 'written'
              : states.includes('read')
                ? 'read'
                : 'empty';
            return (
              <g key={line} data-testid="cache-line" data-holder={holder ?? 'none'}>
                {drawSlots ? (
                  slots.map((slot, k) => (
                    <rect
                      key={slot}
                      x={slotX(slot) + 1}
                      y={rowY(half) + 7}
                      width={slotPx - 2}
                      height={28}
                      className={`slot ${states[k]}`}
                    />
                  ))
                ) : (
                  <rect
                    x={lineX(line) + 1}
                    y={rowY(half) + 7}
                    width={linePx - 2}
                    height={28}
                    className={`slot ${summary}`}
                  />
                )}
                <rect
                  x={lineX(line)}
                  y={rowY(half) + 5}
                  width={linePx}
                  height={32}
                  className={`line-box ${holder ?? ''}`}
                  fill="none"
                />
              </g>
            );
          })}
        </g>
      ))}
      <Cursor
        x={
          slotX(Math.min(s.producer.next, s.semiItems - 1)) +
          (s.producer.next >= s.semiItems ? slotPx : 0)
        }
        y={rowY(s.producer.half) + 3}
        side="producer"
      />
      <Cursor
        x={slotX(Math.min(s.consumer.next, s.semiItems - 1))}
        y={rowY(s.consumer.half) + 39}
        side="consumer"
      />
      <text x={0} y={stateY + 18} className="state-label">
        {`status flips: ${s.flips} (${s.publishes} publishes, ${s.flushes} by flush(), ${s.releases} releases) · items written ${s.itemsWritten}, read ${s.itemsRead}`}
      </text>
      <text x={0} y={stateY + 40} className="state-label" data-testid="handoffs-per-item">
        {`cache lines handed between the cores per item: ${per(s.handoffsPerItem.padded)} with this layout, ${per(s.handoffsPerItem.unpadded)} if the two indices and status shared lines (unpadded)`}
      </text>
      <g transform={`translate(0,${stateY + 58})`} className="legend">
        <polygon points="4,0 12,0 8,8" className="cursor producer" />
        <text x={18} y={9}>
          producer: the next slot it writes
        </text>
        <polygon points="264,8 272,8 268,0" className="cursor consumer" />
        <text x={278} y={9}>
          consumer: the next slot it reads
        </text>
        <rect x={520} y={0} width={10} height={10} className="slot written" />
        <text x={534} y={9}>
          written, not read yet
        </text>
        <rect x={700} y={0} width={10} height={10} className="slot read" />
        <text x={714} y={9}>
          read
        </text>
        <rect x={4} y={20} width={14} height={10} className="line-box producer" />
        <text x={24} y={29}>
          a line the producer&apos;s core touched last
        </text>
        <rect x={330} y={20} width={14} height={10} className="line-box consumer" />
        <text x={350} y={29}>
          a line the consumer&apos;s core touched last (a read copies it over)
        </text>
      </g>
    </svg>
  );
}

function Cursor({ x, y, side }: { x: number; y: number; side: CoreSide }) {
  const points =
    side === 'producer'
      ? `${x - 4},${y - 8} ${x + 4},${y - 8} ${x},${y}`
      : `${x - 4},${y + 8} ${x + 4},${y + 8} ${x},${y}`;
  return <polygon points={points} className={`cursor ${side}`} data-testid={`${side}-cursor`} />;
}

/** At most as wide as its box (fitWidth.tsx): a phone or a course column reflows it. */
export const CacheLineView = fitted(CacheLineViewDrawing, 'widthPx', 900);
