// The queue in front of a pipeline stage: capacity cells filling with live occupancy (bounded), a
// proportional bar for large capacities, or a number and an open-ended bar (unbounded).
import { scaleLinear } from 'd3';
import { formatCount, isFiniteNumber } from './viewHelpers';

export interface QueueBarProps {
  /** Items waiting in the queue now. */
  occupancy: number;
  /** Items the queue holds; null = unbounded. */
  capacity: number | null;
  /** Occupancy that fills an unbounded bar (kept common to all queues by the caller). */
  unboundedScale: number;
  /** Left edge, px. */
  x: number;
  /** Top edge, px. */
  y: number;
  /** Bar width, px. */
  width: number;
  /** data-kind of the fill marks: 'measured' or 'simulated'. */
  kind: string;
}

/** Capacities up to this many are drawn as separate cells. */
export const MAX_CELLS = 16;
const BAR_H = 18;

export function QueueBar({
  occupancy,
  capacity,
  unboundedScale,
  x,
  y,
  width,
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
    <text x={x + width / 2} y={y - 6} textAnchor="middle" className="queue-label">
      {label}
    </text>
  );
  if (bounded && capacity <= MAX_CELLS) {
    const cellW = width / capacity;
    const filled = known ? Math.min(capacity, Math.round(occupancy)) : 0;
    return (
      <g className="queue" data-testid="queue" data-capacity={capacity}>
        {caption}
        {Array.from({ length: capacity }, (_, c) => {
          const full = c >= capacity - filled;
          return (
            <rect
              key={c}
              x={x + c * cellW + 1}
              y={y}
              width={Math.max(1, cellW - 2)}
              height={BAR_H}
              className={full ? 'queue-cell full' : 'queue-cell'}
              data-kind={full ? kind : undefined}
            />
          );
        })}
      </g>
    );
  }
  const scaleMax = bounded ? capacity : Math.max(1, unboundedScale);
  const fillW = scaleLinear().domain([0, scaleMax]).range([0, width]).clamp(true);
  const w = known ? fillW(occupancy) : 0;
  return (
    <g className="queue" data-testid="queue" data-capacity={bounded ? capacity : 'unbounded'}>
      {caption}
      {bounded ? (
        <rect x={x} y={y} width={width} height={BAR_H} className="queue-track" />
      ) : (
        <path
          d={`M${x - 8},${y}H${x + width}V${y + BAR_H}H${x - 8}`}
          className="queue-track open"
        />
      )}
      {w > 0 && (
        <rect
          x={x + width - w}
          y={y}
          width={w}
          height={BAR_H}
          className="queue-fill"
          data-kind={kind}
        />
      )}
    </g>
  );
}
