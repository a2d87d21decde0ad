// One horizontal bar per thread: its counting rate right now, read from the real counters
// (measured on real threads; simulated when one thread takes the threads' turns).
// D3 computes the scale; React renders the marks.
import { scaleLinear } from 'd3';
import { formatRate } from './format';
import { fitted } from './fitWidth';

export interface CounterBarsProps {
  /** Counts per second for each thread, index = thread. */
  ratesPerSec: Float64Array;
  /** Total counts so far for each thread. */
  counts: Float64Array;
  /** Upper end of the scale, counts per second (kept steady between frames by the caller). */
  maxRatePerSec: number;
  width?: number;
  /** Where the rates come from: real threads, or one thread taking their turns. */
  kind?: 'measured' | 'simulated';
}

const ROW_PX = 22;
const LABEL_PX = 72;
const VALUE_PX = 96;

function CounterBarsDrawing({
  ratesPerSec,
  counts,
  maxRatePerSec,
  width = 560,
  kind = 'measured',
}: CounterBarsProps) {
  const n = ratesPerSec.length;
  const x = scaleLinear()
    .domain([0, Math.max(1, maxRatePerSec)])
    .range([0, width - LABEL_PX - VALUE_PX]);
  return (
    <svg
      className="counter-bars"
      width={width}
      height={n * ROW_PX + 4}
      role="img"
      aria-label={`Counting rate of ${n} threads`}
    >
      {Array.from(ratesPerSec, (rate, i) => (
        <g key={i} transform={`translate(0,${i * ROW_PX + 2})`} data-testid="thread-counter">
          <text x={0} y={ROW_PX / 2 + 4} className="label">
            thread {i}
          </text>
          <rect
            x={LABEL_PX}
            y={3}
            height={ROW_PX - 6}
            width={width - LABEL_PX - VALUE_PX}
            className="track"
          />
          <rect
            x={LABEL_PX}
            y={3}
            height={ROW_PX - 6}
            width={Math.max(0, x(Math.min(rate, maxRatePerSec)))}
            className="bar"
            data-kind={kind}
            data-count={counts[i]}
          />
          <text x={width - VALUE_PX + 6} y={ROW_PX / 2 + 4} className="value">
            {formatRate(rate)}/s
          </text>
        </g>
      ))}
    </svg>
  );
}

/** At most as wide as its box (fitWidth.tsx): a phone or a course column reflows it. */
export const CounterBars = fitted(CounterBarsDrawing, 'width', 560);
