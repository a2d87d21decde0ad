// One horizontal bar per thread: its counting rate right now (measured from the real counters).
// D3 computes the scale; React renders the marks.
import { scaleLinear } from 'd3';
import { formatRate } from './format';

export interface CounterBarsProps {
  /** Counts per second for each thread, index = thread. */
  ratesPerSec: Float64Array;
  /** Total counts so far for each thread. */
  counts: Float64Array;
  /** Upper end of the scale, counts per second (kept steady between frames by the caller). */
  maxRatePerSec: number;
  width?: number;
}

const ROW = 22;
const LABEL = 72;
const VALUE = 96;

export function CounterBars({ ratesPerSec, counts, maxRatePerSec, width = 560 }: CounterBarsProps) {
  const n = ratesPerSec.length;
  const x = scaleLinear()
    .domain([0, Math.max(1, maxRatePerSec)])
    .range([0, width - LABEL - VALUE]);
  return (
    <svg
      className="counter-bars"
      width={width}
      height={n * ROW + 4}
      role="img"
      aria-label={`Counting rate of ${n} threads`}
    >
      {Array.from(ratesPerSec, (rate, i) => (
        <g key={i} transform={`translate(0,${i * ROW + 2})`} data-testid="thread-counter">
          <text x={0} y={ROW / 2 + 4} className="label">
            thread {i}
          </text>
          <rect x={LABEL} y={3} height={ROW - 6} width={width - LABEL - VALUE} className="track" />
          <rect
            x={LABEL}
            y={3}
            height={ROW - 6}
            width={Math.max(0, x(Math.min(rate, maxRatePerSec)))}
            className="bar"
            data-kind="measured"
            data-count={counts[i]}
          />
          <text x={width - VALUE + 6} y={ROW / 2 + 4} className="value">
            {formatRate(rate)}/s
          </text>
        </g>
      ))}
    </svg>
  );
}
