// The two-stage output's buffer pool (Dempsey, seed 002) as the writer sees it: one box per
// buffer — free, being filled by a formatter, holding a finished batch, being written — with the
// batch it holds; a finished batch that an earlier one still holds up is marked waiting for its
// turn; the writer takes batches strictly by number ("next"). Below, what happened so far: batches
// written, batches that finished before an earlier one, formatters waiting for a free buffer.
import type { BufferSlot, BufferState } from '../live/bufferPool';
import { stageColor } from './stageColors';
import { formatCount, kindOf, type Source } from './viewHelpers';
import './views.css';
import { fitted } from './fitWidth';

export interface ReorderViewProps {
  /** index = buffer; as many as the pool has. */
  slots: BufferSlot[];
  /** The batch the writer writes next (or is writing). */
  nextToWrite: number;
  batches: number;
  written: number;
  finishedOutOfOrder: number;
  formattersWaiting: number;
  bufferWaits: number;
  source: Source;
  /** Width of the drawing, px. */
  width?: number;
}

const BOX_PX = 44;
const GAP_PX = 8;
const TOP_PX = 26;
/** Pools beyond this many buffers are drawn in part (the rest are counted). */
export const MAX_DRAWN_BUFFERS = 64;

const LABEL: Record<BufferState, string> = {
  free: 'free',
  filling: 'being filled',
  ready: 'finished, in turn',
  writing: 'being written',
};

function fillOf(state: BufferState): string {
  if (state === 'filling' || state === 'ready') return stageColor(0);
  if (state === 'writing') return stageColor(1);
  return 'var(--panel, #fff)';
}

function ReorderViewDrawing(props: ReorderViewProps) {
  const { slots, nextToWrite, batches, source, width = 760 } = props;
  const kind = kindOf(source);
  const drawn = slots.slice(0, MAX_DRAWN_BUFFERS);
  const perRow = Math.max(1, Math.floor((width - 16) / (BOX_PX + GAP_PX)));
  const rows = Math.max(1, Math.ceil(drawn.length / perRow));
  const height = TOP_PX + rows * (BOX_PX + GAP_PX + 14) + 30;
  const waiting = drawn.filter((s) => s.waiting).length;
  const summary =
    `Buffer pool of ${slots.length}: ${drawn.filter((s) => s.state !== 'free').length} in use, ` +
    `${waiting} finished batch${waiting === 1 ? '' : 'es'} waiting for ${nextToWrite} to be written`;
  return (
    <div
      className="reorder-view"
      data-testid="reorder-view"
      data-kind={kind}
      data-finished-out-of-order={props.finishedOutOfOrder}
    >
      <svg width={width} height={height} role="img" aria-label={summary}>
        <text x={8} y={16} className="reorder-title">
          {slots.length} buffer{slots.length === 1 ? '' : 's'} ·{' '}
          {props.written >= batches
            ? `all ${formatCount(batches)} batches written`
            : `the writer takes batch #${nextToWrite} next`}
        </text>
        {drawn.map((slot, b) => {
          const x = 8 + (b % perRow) * (BOX_PX + GAP_PX);
          const y = TOP_PX + Math.floor(b / perRow) * (BOX_PX + GAP_PX + 14);
          const isNext = slot.batch === nextToWrite && slot.state !== 'free';
          return (
            <g
              key={b}
              data-testid="buffer"
              data-state={slot.state}
              data-batch={slot.batch ?? ''}
              data-waiting={slot.waiting}
              transform={`translate(${x},${y})`}
            >
              <title>
                {`buffer ${b}: ${LABEL[slot.state]}` +
                  (slot.batch !== null ? `, batch #${slot.batch}` : '') +
                  (slot.waiting ? ` — waits until #${nextToWrite} is written` : '')}
              </title>
              <rect
                width={BOX_PX}
                height={BOX_PX}
                rx={4}
                className={`buffer-box ${slot.state}${slot.waiting ? ' waiting' : ''}${isNext ? ' next' : ''}`}
                fill={fillOf(slot.state)}
                fillOpacity={slot.state === 'filling' ? 0.35 : 1}
              />
              {slot.batch !== null && (
                <text
                  x={BOX_PX / 2}
                  y={BOX_PX / 2 + 5}
                  textAnchor="middle"
                  className="buffer-batch"
                >
                  #{slot.batch}
                </text>
              )}
              {slot.waiting && (
                <text x={BOX_PX / 2} y={BOX_PX + 12} textAnchor="middle" className="buffer-note">
                  waits
                </text>
              )}
              {isNext && slot.state === 'writing' && (
                <text x={BOX_PX / 2} y={BOX_PX + 12} textAnchor="middle" className="buffer-note">
                  writing
                </text>
              )}
            </g>
          );
        })}
        <g transform={`translate(8,${height - 12})`} className="reorder-legend">
          {(['free', 'filling', 'ready', 'writing'] as const).map((s, i) => (
            <g key={s} transform={`translate(${i * 160},0)`}>
              <rect
                y={-11}
                width={14}
                height={14}
                rx={2}
                className={`buffer-box ${s}`}
                fill={fillOf(s)}
                fillOpacity={s === 'filling' ? 0.35 : 1}
              />
              <text x={20} y={0}>
                {LABEL[s]}
              </text>
            </g>
          ))}
          <g transform="translate(640,0)">
            <rect
              y={-11}
              width={14}
              height={14}
              rx={2}
              className="buffer-box ready waiting"
              fill={fillOf('ready')}
            />
            <text x={20} y={0}>
              waits for its turn
            </text>
          </g>
        </g>
      </svg>
      {slots.length > drawn.length && (
        <p className="hint">
          {slots.length - drawn.length} more buffers are not drawn (their batches are counted).
        </p>
      )}
      <p className="reorder-counts">
        Written: <b data-testid="batches-written">{formatCount(props.written)}</b> of{' '}
        {formatCount(batches)} batches · finished before an earlier batch, so they waited:{' '}
        <b data-testid="finished-out-of-order">{formatCount(props.finishedOutOfOrder)}</b> ·
        formatters waiting for a free buffer now:{' '}
        <b data-testid="formatters-waiting">{props.formattersWaiting}</b> (the pool was empty{' '}
        {formatCount(props.bufferWaits)} times) · <span className={kind}>{kind}</span>
      </p>
    </div>
  );
}

/** At most as wide as its box (fitWidth.tsx): a phone or a course column reflows it. */
export const ReorderView = fitted(ReorderViewDrawing, 'width', 760);
