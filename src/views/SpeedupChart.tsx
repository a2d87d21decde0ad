// The communication model of seed 001 §II against the visitor's runs: speed-up S(n) of a linear
// pipeline of n stages splitting T_seq of work per item, one curve per queue from that queue's
// measured T_comm (S(n) = T_seq / (T_seq/n + T_comm), whose ceiling as n grows is T_seq/T_comm),
// measured points where the visitor has the cores, the twin's points beyond, and the ideal S = n.
// D3 computes the scales and the paths; React renders the marks.
import { line, scaleLinear } from 'd3';
import { legendRows } from './chartLayout';
import { RunMark } from './RunMark';
import { isFiniteNumber } from './viewHelpers';
import { AxisTitles } from './AxisTitles';
import './queueViews.css';
import { fitted } from './fitWidth';

export interface SpeedupSeries {
  queue: string;
  label: string;
  colour: string;
  /** The queue's measured T_comm, µs per item (null until its comm run). */
  tCommUs: number | null;
  /** Speed-ups measured on real threads (n <= cores) and simulated by the twin (n > cores). */
  points: Array<{
    n: number;
    speedup: number;
    min?: number;
    max?: number;
    kind: 'measured' | 'simulated';
  }>;
}

export interface SpeedupChartProps {
  /** T_seq: the work per item, µs. */
  tSeqUs: number;
  /** Stages on the x axis: 1..maxStages. */
  maxStages: number;
  series: SpeedupSeries[];
  widthPx?: number;
  heightPx?: number;
}

const PAD = { left: 60, right: 20, top: 30, bottom: 46 };
const LEGEND_ROW_PX = 20;

/** S(n) = T_seq / (T_seq / n + T_comm). */
export const commSpeedup = (n: number, tSeqUs: number, tCommUs: number) =>
  tSeqUs / (tSeqUs / n + tCommUs);

function SpeedupChartDrawing({
  tSeqUs,
  maxStages,
  series,
  widthPx = 900,
  heightPx = 340,
}: SpeedupChartProps) {
  const ns = Array.from({ length: maxStages }, (_, i) => i + 1);
  const legend = legendRows(
    [
      { label: 'ideal S = n', kind: 'ideal' },
      ...series.map((s) => ({ label: s.label, kind: s.queue })),
      { label: 'measured', kind: 'measured' },
      { label: 'simulated (twin)', kind: 'simulated' },
    ],
    PAD.left,
    widthPx - PAD.right,
  );
  const top = PAD.top + (legend.at(-1)?.row ?? 0) * LEGEND_ROW_PX + LEGEND_ROW_PX;
  const x = scaleLinear()
    .domain([1, maxStages])
    .range([PAD.left, widthPx - PAD.right]);
  const ys = series.flatMap((s) => s.points.map((p) => p.max ?? p.speedup)).filter(isFiniteNumber);
  const y = scaleLinear()
    .domain([0, Math.max(maxStages, ...ys)])
    .range([heightPx - PAD.bottom, top])
    .nice();
  const path = line<[number, number]>()
    .x((d) => x(d[0]))
    .y((d) => y(d[1]));
  return (
    <svg
      className="speedup-chart"
      width={widthPx}
      height={heightPx}
      role="img"
      data-testid="speedup-chart"
      aria-label={`Speed-up against stages for T_seq = ${tSeqUs} µs: ${series.length} queues`}
    >
      {y.ticks(5).map((t) => (
        <g key={t} transform={`translate(0,${y(t)})`}>
          <line x1={PAD.left} x2={widthPx - PAD.right} className="grid" />
          <text x={PAD.left - 8} y={4} textAnchor="end">
            {t}
          </text>
        </g>
      ))}
      {ns.map((n) => (
        <text key={n} x={x(n)} y={heightPx - PAD.bottom + 18} textAnchor="middle">
          {n}
        </text>
      ))}
      <AxisTitles
        x="stages n (threads), each doing T_seq / n of the work"
        y="speed-up over one thread"
        leftPx={PAD.left}
        rightPx={widthPx - PAD.right}
        topPx={top}
        bottomPx={heightPx - PAD.bottom}
        heightPx={heightPx}
      />
      <path d={path(ns.map((n) => [n, n])) ?? ''} className="ideal" />
      {series.map((s) =>
        s.tCommUs === null ? null : (
          <path
            key={s.queue}
            d={path(ns.map((n) => [n, commSpeedup(n, tSeqUs, s.tCommUs!)])) ?? ''}
            className="model-line"
            stroke={s.colour}
            data-kind="model"
            data-queue={s.queue}
          />
        ),
      )}
      {series.flatMap((s) =>
        s.points.map((p) => (
          <g key={`${s.queue}-${p.n}-${p.kind}`} data-testid="speedup-point">
            {isFiniteNumber(p.min) && isFiniteNumber(p.max) && p.max > p.min && (
              <path
                d={`M${x(p.n) - 4},${y(p.min)}h8M${x(p.n)},${y(p.min)}V${y(p.max)}M${x(p.n) - 4},${y(p.max)}h8`}
                stroke={s.colour}
              />
            )}
            <RunMark
              cx={x(p.n)}
              cy={y(p.speedup)}
              kind={p.kind}
              colour={s.colour}
              data={{ queue: s.queue, n: p.n, speedup: p.speedup }}
            />
          </g>
        )),
      )}
      <g transform="translate(0,14)">
        {legend.map((e) => {
          const s = series.find((q) => q.queue === e.kind);
          return (
            <g key={e.label} transform={`translate(${e.x},${e.row * LEGEND_ROW_PX})`}>
              {e.kind === 'ideal' ? (
                <line x1={0} x2={20} y1={0} y2={0} className="ideal" />
              ) : s ? (
                <line x1={0} x2={20} y1={0} y2={0} className="model-line" stroke={s.colour} />
              ) : (
                <circle
                  cx={10}
                  cy={0}
                  r={5}
                  className={`dot ${e.kind}`}
                  fill={e.kind === 'measured' ? '#5b6475' : '#fff'}
                  stroke="#5b6475"
                />
              )}
              <text x={26} y={4}>
                {e.label}
              </text>
            </g>
          );
        })}
      </g>
    </svg>
  );
}

/** At most as wide as its box (fitWidth.tsx): a phone or a course column reflows it. */
export const SpeedupChart = fitted(SpeedupChartDrawing, 'widthPx', 900);
