// Several named series against one parameter — each a model curve and points measured on threads
// (filled) or simulated (hollow), with min..max bars and an optional note at a point — on linear or
// logarithmic axes. D3 computes the scales and the curve paths; React renders the marks.
import { line, scaleLinear, scaleLog } from 'd3';
import { AxisTitles } from './AxisTitles';
import { legendRows } from './chartLayout';
import { RunMark } from './RunMark';
import { isFiniteNumber, kindOf } from './viewHelpers';
import './views.css';
import { fitted } from './fitWidth';

export interface SeriesPoint {
  x: number;
  y: number;
  min?: number;
  max?: number;
  source: 'threads' | 'simulation';
  /** A word at the point (e.g. why it is flat). */
  note?: string;
}

export interface Series {
  id: string;
  label: string;
  color: string;
  /** The model's [x, y] in x order (dashed), if any. */
  curve?: Array<[number, number]>;
  points: SeriesPoint[];
}

export interface SeriesChartProps {
  xLabel: string;
  yLabel: string;
  series: Series[];
  /** 'log2' for doubling parameters (batch sizes), 'log' y for rates spanning decades. */
  xScale?: 'linear' | 'log2';
  yScale?: 'linear' | 'log';
  width?: number;
  height?: number;
  /** Shown when nothing is plotted yet. */
  empty?: string;
  testId?: string;
}

const PAD = { left: 78, right: 24, top: 12, bottom: 48 };
const LEGEND_ROW = 20;

function SeriesChartDrawing({
  xLabel,
  yLabel,
  series,
  xScale = 'linear',
  yScale = 'linear',
  width = 640,
  height = 300,
  empty = 'Nothing measured yet.',
  testId,
}: SeriesChartProps) {
  const ok = (p: { x: number; y: number }) =>
    isFiniteNumber(p.x) && isFiniteNumber(p.y) && p.y > 0 && p.x > 0;
  const curves = series.map((s) => (s.curve ?? []).filter(([x, y]) => ok({ x, y })));
  const dots = series.map((s) => s.points.filter(ok));
  const xs = [...curves.flat().map((p) => p[0]), ...dots.flat().map((p) => p.x)];
  const ys = [
    ...curves.flat().map((p) => p[1]),
    ...dots.flat().flatMap((p) => [p.y, p.max ?? p.y, p.min ?? p.y]),
  ];
  if (xs.length === 0)
    return (
      <svg
        className="model-chart"
        width={width}
        height={50}
        role="img"
        aria-label={empty}
        data-testid={testId}
      >
        <text x={width / 2} y={30} textAnchor="middle" className="hint">
          {empty}
        </text>
      </svg>
    );
  // Which runs are drawn, by kind: the legend says what a filled and a hollow mark are.
  const kinds = (['measured', 'simulated'] as const).filter((k) =>
    dots.some((ds) => ds.some((p) => kindOf(p.source) === k)),
  );
  const legend = legendRows(
    [
      ...series.flatMap((s, i) => [
        { label: s.label, i, model: false, kind: null },
        ...(curves[i].length ? [{ label: `model: ${s.label}`, i, model: true, kind: null }] : []),
      ]),
      ...kinds.map((kind) => ({
        label: kind === 'measured' ? 'measured (threads)' : 'simulated',
        i: -1,
        model: false,
        kind,
      })),
    ],
    PAD.left,
    width - PAD.right,
  );
  const top = PAD.top + ((legend.at(-1)?.row ?? 0) + 1) * LEGEND_ROW;
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  const x = (xScale === 'log2' ? scaleLog().base(2) : scaleLinear())
    .domain(x0 === x1 ? [x0 / 2, x1 * 2] : [x0, x1])
    .range([PAD.left, width - PAD.right]);
  const [y0, y1] = [Math.min(...ys.filter((v) => v > 0)), Math.max(...ys)];
  const y = (yScale === 'log' ? scaleLog() : scaleLinear())
    .domain(yScale === 'log' ? [y0 / 1.5, y1 * 1.5] : [0, y1 * 1.1])
    .nice()
    .range([height - PAD.bottom, top]);
  const path = line<[number, number]>()
    .x((p) => x(p[0]))
    .y((p) => y(p[1]));
  const xTicks = xScale === 'log2' ? [...new Set(xs)].sort((a, b) => a - b) : x.ticks(6);
  const yTicks = y.ticks(yScale === 'log' ? 4 : 5);
  // d3 gives every tick the axis's SI prefix, zero too ("0k"): zero is written plain.
  const siFormat = y.tickFormat(yScale === 'log' ? 4 : 5, '~s');
  const yFormat = (v: number) => (v === 0 ? '0' : siFormat(v));
  return (
    <svg
      className="model-chart"
      width={width}
      height={height}
      role="img"
      data-testid={testId}
      aria-label={`${yLabel} against ${xLabel}: ${series.map((s) => s.label).join(', ')}`}
    >
      {legend.map((item, k) => (
        <g key={k} transform={`translate(${item.x},${PAD.top + item.row * LEGEND_ROW})`}>
          {item.kind ? (
            <RunMark kind={item.kind} cx={8} cy={9} />
          ) : item.model ? (
            <line
              x1={0}
              x2={16}
              y1={9}
              y2={9}
              stroke={series[item.i].color}
              strokeDasharray="5 3"
              strokeWidth={2}
            />
          ) : (
            <circle cx={8} cy={9} r={5} fill={series[item.i].color} />
          )}
          <text x={22} y={14} className="legend">
            {item.label}
          </text>
        </g>
      ))}
      <line
        x1={PAD.left}
        x2={width - PAD.right}
        y1={height - PAD.bottom}
        y2={height - PAD.bottom}
        className="axis"
      />
      <line x1={PAD.left} x2={PAD.left} y1={top} y2={height - PAD.bottom} className="axis" />
      {xTicks.map((v) => (
        <g key={v} transform={`translate(${x(v)},${height - PAD.bottom})`}>
          <line y2={5} className="axis" />
          <text y={19} textAnchor="middle" className="tick">
            {v}
          </text>
        </g>
      ))}
      {yTicks.map((v) => (
        <g key={v} transform={`translate(${PAD.left},${y(v)})`}>
          <line x2={-5} className="axis" />
          <text x={-8} y={4} textAnchor="end" className="tick">
            {yFormat(v)}
          </text>
        </g>
      ))}
      <AxisTitles
        x={xLabel}
        y={yLabel}
        leftPx={PAD.left}
        rightPx={width - PAD.right}
        topPx={top}
        bottomPx={height - PAD.bottom}
        heightPx={height}
      />
      {series.map((s, i) => (
        <g key={s.id} data-series={s.id}>
          {curves[i].length > 1 && (
            <path
              d={path(curves[i]) ?? ''}
              fill="none"
              stroke={s.color}
              strokeWidth={2}
              strokeDasharray="5 3"
              data-kind="model"
            />
          )}
          {dots[i].map((p, k) => {
            return (
              <g key={k}>
                <title>{`${s.label} at ${p.x}: ${yFormat(p.y)} (${kindOf(p.source)})`}</title>
                {isFiniteNumber(p.min) && isFiniteNumber(p.max) && p.min > 0 && (
                  <line
                    x1={x(p.x)}
                    x2={x(p.x)}
                    y1={y(p.min)}
                    y2={y(p.max)}
                    stroke={s.color}
                    className="spread"
                  />
                )}
                <RunMark
                  kind={kindOf(p.source)}
                  cx={x(p.x)}
                  cy={y(p.y)}
                  colour={s.color}
                  data={{ x: p.x, y: p.y }}
                />
                {p.note && firstNoteAt(dots[i], k) && (
                  // A note in the right half reads leftwards from its point, so it stays inside.
                  <text
                    x={x(p.x) > width / 2 ? x(p.x) - 8 : x(p.x) + 8}
                    y={y(p.y) - 8}
                    textAnchor={x(p.x) > width / 2 ? 'end' : 'start'}
                    className="point-note"
                  >
                    {p.note}
                  </text>
                )}
              </g>
            );
          })}
        </g>
      ))}
    </svg>
  );
}

/** Whether point k carries the first copy of its note at its x (a measured and a simulated point
 * at one setting share a note: it is written once, not twice on top of itself). */
function firstNoteAt(points: SeriesPoint[], k: number): boolean {
  const p = points[k];
  return !points.slice(0, k).some((q) => q.x === p.x && q.note === p.note);
}

/** At most as wide as its box (fitWidth.tsx): a phone or a course column reflows it. */
export const SeriesChart = fitted(SeriesChartDrawing, 'width', 640);
