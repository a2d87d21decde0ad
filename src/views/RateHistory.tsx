// The total counting rate over the last seconds, as a line (measured, or simulated when one
// thread takes the threads' turns). D3 builds the path.
import { line, scaleLinear } from 'd3';
import { formatRate } from './format';
import { fitted } from './fitWidth';

export interface RateHistoryProps {
  /** [msSinceStart, countsPerSec] samples, oldest first. */
  history: Array<[number, number]>;
  /** Upper end of the y scale, counts per second. */
  maxRatePerSec: number;
  windowMs?: number;
  width?: number;
  height?: number;
  /** Where the rates come from: real threads, or one thread taking their turns. */
  kind?: 'measured' | 'simulated';
}

function RateHistoryDrawing({
  history,
  maxRatePerSec,
  windowMs = 10_000,
  width = 560,
  height = 120,
  kind = 'measured',
}: RateHistoryProps) {
  const pad = { left: 56, right: 8, top: 8, bottom: 18 };
  const tEnd = history.length ? history[history.length - 1][0] : windowMs;
  const x = scaleLinear()
    .domain([Math.max(0, tEnd - windowMs), Math.max(windowMs, tEnd)])
    .range([pad.left, width - pad.right]);
  const y = scaleLinear()
    .domain([0, Math.max(1, maxRatePerSec)])
    .range([height - pad.bottom, pad.top]);
  const path = line<[number, number]>()
    .x((d) => x(d[0]))
    .y((d) => y(Math.min(d[1], maxRatePerSec)))(history);
  return (
    <svg
      className="rate-history"
      width={width}
      height={height}
      role="img"
      aria-label="Total rate over time"
    >
      <line x1={pad.left} x2={width - pad.right} y1={y(0)} y2={y(0)} className="axis" />
      {history.some(([, rate]) => rate > 0) ? (
        <text x={pad.left - 6} y={y(maxRatePerSec) + 4} className="tick" textAnchor="end">
          {formatRate(maxRatePerSec)}/s
        </text>
      ) : (
        // No scale before there is a rate: a bare "1.00" at the top read as a measurement.
        <text x={(pad.left + width) / 2} y={height / 2} className="tick" textAnchor="middle">
          the total rate draws here while threads count
        </text>
      )}
      <text x={pad.left - 6} y={y(0) + 4} className="tick" textAnchor="end">
        0
      </text>
      <text x={width - pad.right} y={height - 4} className="tick" textAnchor="end">
        last {windowMs / 1000} s
      </text>
      {path && <path d={path} className="line" data-kind={kind} />}
    </svg>
  );
}

/** At most as wide as its box (fitWidth.tsx): a phone or a course column reflows it. */
export const RateHistory = fitted(RateHistoryDrawing, 'width', 560);
