// The queue in front of a pipeline stage as an upright tube filling from the bottom: capacity
// cells (small bounded queues), a proportional fill (large ones), or an open-topped tube (unbounded).
import { scaleLinear } from 'd3';
import { formatCount, isFiniteNumber } from './viewHelpers';

export interface QueueBarProps {
  /** Items waiting in the queue now. */
  occupancy: number;
  /** Items the queue holds; null = unbounded. */
  capacity: number | null;
  /** Occupancy that fills an unbounded tube (kept common to all queues by the caller). */
  unboundedScale: number;
  /** Centre of the tube, px. */
  cx: number;
  /** Top of the tube, px. */
  y: number;
  /** Height of the tube, px. */
  height: number;
  /** data-kind of the fill marks: 'measured' or 'simulated'. */
  kind: string;
}

/** Capacities up to this many are drawn as separate cells (in two columns above 8). */
export const MAX_CELLS = 16;
const COL_W = 13;

export function QueueBar({
  occupancy,
  capacity,
  unboundedScale,
  cx,
  y,
  height,
  kind,
}: QueueBarProps) {
  const known = isFiniteNumber(occupancy) && occupancy >= 0;
  const bounded = capacity !== null && isFiniteNumber(capacity) && capacity > 0;
  const label = !known
    ? '–'
    : bounded
      ? `${formatCount(occupancy)}/${formatCount(capacity)}`
      : formatCount(occupancy);
  const caption = (
    <text x={cx} y={y - 6} textAnchor="middle" className="queue-label">
      {label}
    </text>
  );
  const bottom = y + height;
  if (bounded && capacity <= MAX_CELLS) {
    const cols = capacity > 8 ? 2 : 1;
    const rows = Math.ceil(capacity / cols);
    const cellW = cols === 1 ? 2 * COL_W : COL_W;
    const cellH = height / rows;
    const left = cx - COL_W;
    const filled = known ? Math.min(capacity, Math.round(occupancy)) : 0;
    return (
      <g className="queue" data-testid="queue" data-capacity={capacity}>
        {caption}
        {Array.from({ length: capacity }, (_, c) => {
          const full = c < filled;
          return (
            <rect
              key={c}
              x={left + (c % cols) * cellW + 1}
              y={bottom - (Math.floor(c / cols) + 1) * cellH + 1}
              width={cellW - 2}
              height={Math.max(1, cellH - 2)}
              className={full ? 'queue-cell full' : 'queue-cell'}
              data-kind={full ? kind : undefined}
            />
          );
        })}
      </g>
    );
  }
  const scaleMax = bounded ? capacity : Math.max(1, unboundedScale);
  const fillH = scaleLinear().domain([0, scaleMax]).range([0, height]).clamp(true);
  const h = known ? fillH(occupancy) : 0;
  const left = cx - COL_W;
  return (
    <g className="queue" data-testid="queue" data-capacity={bounded ? capacity : 'unbounded'}>
      {caption}
      {bounded ? (
        <rect x={left} y={y} width={2 * COL_W} height={height} className="queue-track" />
      ) : (
        <path d={`M${left},${y}V${bottom}H${left + 2 * COL_W}V${y}`} className="queue-track open" />
      )}
      {h > 0 && (
        <rect
          x={left}
          y={bottom - h}
          width={2 * COL_W}
          height={h}
          className="queue-fill"
          data-kind={kind}
        />
      )}
    </g>
  );
}
