// Semi-buffer size against latency: for each BatchQueue semi-buffer size measured on the visitor's
// threads, its throughput (comm, 2 threads) across and the mean time an item waited before the
// consumer saw it (at a fixed offered rate) up, both on log scales, each point labelled with its
// size in cache lines. Bigger semi-buffers move right (fewer hand-overs per item) and up (an item
// waits for its semi-buffer to fill). D3 computes the scales; React renders the marks.
import { scaleLog } from 'd3';
import { formatRate } from './format';
import { isFiniteNumber } from './viewHelpers';
import { counted } from '../spec/words';
import { AxisTitles } from './AxisTitles';
import { spacedLogTicks } from './chartLayout';
import './queueViews.css';
import { fitted } from './fitWidth';

export interface LatencyPoint {
  lines: number;
  itemsPerS: number;
  waitUs: number;
  /** The control's current size, drawn larger. */
  current?: boolean;
}

export interface LatencyChartProps {
  points: LatencyPoint[];
  widthPx?: number;
  heightPx?: number;
}

const PAD = { left: 70, right: 24, top: 16, bottom: 46 };
/** Room for a tick label: an x label ("12.3M") is about 40 px wide, a y label one line high. */
const X_LABEL_PX = 64;
const Y_LABEL_PX = 22;

function LatencyChartDrawing({ points, widthPx = 900, heightPx = 300 }: LatencyChartProps) {
  const shown = points.filter(
    (p) => isFiniteNumber(p.itemsPerS) && p.itemsPerS > 0 && isFiniteNumber(p.waitUs),
  );
  if (shown.length === 0)
    return (
      <svg
        className="latency-chart"
        width={widthPx}
        height={50}
        data-testid="latency-chart"
        role="img"
        aria-label="Wait against throughput: no semi-buffer size measured yet"
      >
        <text x={widthPx / 2} y={30} textAnchor="middle">
          Measure a semi-buffer size to plot its throughput and its items' wait.
        </text>
      </svg>
    );
  const xs = shown.map((p) => p.itemsPerS);
  const ys = shown.map((p) => Math.max(0.01, p.waitUs));
  const x = scaleLog()
    .domain([Math.min(...xs) / 1.5, Math.max(...xs) * 1.5])
    .range([PAD.left, widthPx - PAD.right]);
  const y = scaleLog()
    .domain([Math.min(...ys) / 2, Math.max(...ys) * 2])
    .range([heightPx - PAD.bottom, PAD.top]);
  return (
    <svg
      className="latency-chart"
      width={widthPx}
      height={heightPx}
      role="img"
      data-testid="latency-chart"
      aria-label={`Wait against throughput for ${counted(shown.length, 'semi-buffer size')}`}
    >
      {spacedLogTicks(y.ticks(4), y, Y_LABEL_PX).map((t) => (
        <g key={t} transform={`translate(0,${y(t)})`}>
          <line x1={PAD.left} x2={widthPx - PAD.right} className="grid" />
          <text x={PAD.left - 8} y={4} textAnchor="end">
            {t >= 1 ? t.toFixed(0) : t.toPrecision(1)}
          </text>
        </g>
      ))}
      {spacedLogTicks(x.ticks(4), x, X_LABEL_PX).map((t) => (
        <text key={t} x={x(t)} y={heightPx - PAD.bottom + 18} textAnchor="middle">
          {formatRate(t)}
        </text>
      ))}
      <AxisTitles
        x="throughput, items/s (comm, 2 threads)"
        y="mean wait until seen, µs"
        leftPx={PAD.left}
        rightPx={widthPx - PAD.right}
        topPx={PAD.top}
        bottomPx={heightPx - PAD.bottom}
        heightPx={heightPx}
      />
      {shown.map((p) => (
        <g key={p.lines} data-testid="latency-point" data-lines={p.lines}>
          <circle
            cx={x(p.itemsPerS)}
            cy={y(Math.max(0.01, p.waitUs))}
            r={p.current ? 7 : 5}
            className="dot measured"
            data-kind="measured"
            data-items-per-s={p.itemsPerS}
            data-wait-us={p.waitUs}
          />
          <text x={x(p.itemsPerS) + 9} y={y(Math.max(0.01, p.waitUs)) + 4} className="point-label">
            {p.lines} line{p.lines === 1 ? '' : 's'}
          </text>
        </g>
      ))}
    </svg>
  );
}

/** At most as wide as its box (fitWidth.tsx): a phone or a course column reflows it. */
export const LatencyChart = fitted(LatencyChartDrawing, 'widthPx', 900);
