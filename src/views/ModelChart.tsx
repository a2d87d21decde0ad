// Throughput against a swept parameter: model curves as orange lines, measured or simulated points
// with min..max spread bars, a marker at the current setting, and a legend naming every mark and
// curve (curve names live in the legend, not at line ends, where long names ran off the edge).
import { extent, line, scaleLinear, scaleLog } from 'd3';
import { AxisTitles } from './AxisTitles';
import { fitLabel, integerTicks, legendRows, spreadLabels } from './chartLayout';
import { RunMark } from './RunMark';
import { isFiniteNumber, kindOf } from './viewHelpers';
import './views.css';
import { fitted } from './fitWidth';

export interface ModelChartProps {
  /** Label of the swept parameter (x axis). */
  xLabel: string;
  /** Label of the y axis, e.g. 'throughput (items/s)'. */
  yLabel: string;
  /** Model curves: [x, y] points in x order; dashed for secondary readings. */
  curves: Array<{
    id: string;
    label: string;
    points: Array<[number, number]>;
    dashed?: boolean;
    /** Dotted instead of dashed (a third reading). */
    dotted?: boolean;
    /** Stroke colour; by default the curves take MODEL_SHADES in turn. */
    colour?: string;
  }>;
  /** Runs: median y with the min..max of its repeats, and where it came from. */
  points: Array<{
    x: number;
    y: number;
    min?: number;
    max?: number;
    source: 'threads' | 'simulation';
    /** Which of `series` the run belongs to (e.g. one of two layouts). */
    series?: number;
  }>;
  /** Series of runs (e.g. two layouts): each run of a series is marked with its short `mark`
   * beside the point, and the legend says what each mark means. */
  series?: Array<{ mark: string; label: string }>;
  /** The current setting of the swept parameter, marked by a vertical line. */
  currentX?: number;
  /** Width of the drawing, px. */
  width?: number;
  /** Height of the drawing, px. */
  height?: number;
  /** A base-2 logarithmic x axis (x > 0), ticked at powers of two: for sizes such as batches. */
  logX?: boolean;
  /** A base-10 logarithmic y axis (values ≤ 0 are not drawn): for times spanning decades. */
  logY?: boolean;
}

const PAD = { left: 70, right: 24, top: 30, bottom: 50 };
const LEGEND_ROW = 20;
/** Model curves take these in turn: the house orange, then darker and lighter oranges. */
export const MODEL_SHADES = ['var(--model)', '#9a4a0a', '#f2a65a', '#c25e00'];

/** …, 0.1, 1, 10, … within the domain. */
function powersOfTen([y0, y1]: [number, number]): number[] {
  const out: number[] = [];
  for (let e = Math.ceil(Math.log10(y0) - 1e-9); 10 ** e <= y1 * (1 + 1e-9); e++) out.push(10 ** e);
  return out;
}

/** 1, 2, 4, … within the domain, thinned to at most 13 ticks. */
function powersOfTwo([x0, x1]: [number, number]): number[] {
  const all: number[] = [];
  for (let t = 2 ** Math.ceil(Math.log2(x0)); t <= x1; t *= 2) all.push(t);
  const step = Math.ceil(all.length / 13);
  return all.filter((_, i) => i % step === 0);
}

function ModelChartDrawing(props: ModelChartProps) {
  const { xLabel, yLabel, curves, currentX, width = 640, height = 320 } = props;
  // A log axis draws positive values only.
  const drawable = (px: number, py: number) =>
    isFiniteNumber(px) && isFiniteNumber(py) && (!props.logX || px > 0) && (!props.logY || py > 0);
  const lines = curves.map((c) => ({
    ...c,
    points: c.points.filter(([px, py]) => drawable(px, py)),
  }));
  const dots = props.points.filter((p) => drawable(p.x, p.y));
  const xs = [...lines.flatMap((c) => c.points.map((p) => p[0])), ...dots.map((p) => p.x)];
  if (xs.length === 0) {
    return (
      <svg
        className="model-chart"
        width={width}
        height={60}
        role="img"
        aria-label={`${yLabel} against ${xLabel}: no data yet`}
      >
        <text x={width / 2} y={34} textAnchor="middle" className="hint">
          No model or runs yet: run a sweep to plot {yLabel} against {xLabel}.
        </text>
      </svg>
    );
  }
  if (isFiniteNumber(currentX)) xs.push(currentX);
  const [x0, x1] = extent(xs) as [number, number];
  const xDomain: [number, number] = x0 === x1 ? [x0 - 1, x1 + 1] : [x0, x1];
  const ys = [
    ...lines.flatMap((c) => c.points.map((p) => p[1])),
    ...dots.flatMap((p) => [p.y, p.max].filter(isFiniteNumber)),
  ];
  const kinds = new Set(dots.map((p) => kindOf(p.source)));
  const legend = legendRows(
    [
      ...(kinds.has('measured')
        ? [{ kind: 'measured' as const, label: 'measured (threads)' }]
        : []),
      ...(kinds.has('simulated') ? [{ kind: 'simulated' as const, label: 'simulated' }] : []),
      ...(props.series ?? []).map((s) => ({
        kind: 'series' as const,
        label: `${s.mark} = ${s.label}`,
        mark: s.mark,
      })),
      ...lines.map((c, i) => ({ kind: 'model' as const, label: `model: ${c.label}`, curve: i })),
    ],
    PAD.left,
    width - PAD.right,
  );
  const top = PAD.top + (legend.at(-1)?.row ?? -1) * LEGEND_ROW + LEGEND_ROW;
  const x = (props.logX ? scaleLog().base(2) : scaleLinear())
    .domain(props.logX ? [Math.max(x0, 1e-9), Math.max(x1, x0 * 2)] : xDomain)
    .range([PAD.left, width - PAD.right]);
  const positive = ys.filter((v) => v > 0);
  const y = (
    props.logY && positive.length > 0
      ? scaleLog().domain([Math.min(...positive) / 1.3, Math.max(...positive) * 1.3])
      : scaleLinear().domain([0, Math.max(1, ...ys)])
  )
    .range([height - PAD.bottom, top])
    .nice();
  const xTicks = props.logX
    ? powersOfTwo(x.domain() as [number, number])
    : (integerTicks(xDomain, xs) ?? x.ticks(6));
  // A log axis over more than two decades is ticked at powers of ten (first-item latency); over
  // fewer, at d3's 1-2-5 steps, so a run time of 5..60 s still gets several labels.
  const [d0, d1] = y.domain() as [number, number];
  const manyDecades = props.logY === true && Math.log10(d1 / d0) > 2;
  const yTick = manyDecades
    ? (t: number) => (t >= 1 ? String(t) : String(Number(t.toPrecision(1))))
    : y.tickFormat(props.logY ? 6 : 5, props.logY ? '~g' : '~s');
  const yTicks = manyDecades
    ? powersOfTen([d0, d1])
    : props.logY
      ? y.ticks(6).filter((t) => yTick(t) !== '')
      : y.ticks(5);
  const baseY = height - PAD.bottom;
  const path = line<[number, number]>()
    .x((d) => x(d[0]))
    .y((d) => y(d[1]));
  // Series letters beside their points, pushed apart where points of two series meet.
  const marked = dots.flatMap((p, i) => (p.series !== undefined ? [i] : []));
  const spread = spreadLabels(marked.map((i) => ({ x: x(dots[i].x), y: y(dots[i].y) - 5 })));
  const seriesMarkY = new Map(marked.map((i, k) => [i, spread[k]]));
  const summary =
    `${yLabel} against ${xLabel}: ${lines.length} model curve${lines.length === 1 ? '' : 's'}` +
    ` (${lines.map((c) => c.label).join(', ') || 'none'}), ${dots.length} run${dots.length === 1 ? '' : 's'}` +
    (isFiniteNumber(currentX) ? `, current ${xLabel} ${currentX}` : '');
  return (
    <figure className="model-chart-figure">
      <svg className="model-chart" width={width} height={height} role="img" aria-label={summary}>
        {yTicks.map((t) => (
          <g key={t} transform={`translate(0,${y(t)})`}>
            <line x1={PAD.left} x2={width - PAD.right} className="grid" />
            <text x={PAD.left - 8} y={4} textAnchor="end" className="tick">
              {t === 0 ? '0' : yTick(t)}
            </text>
          </g>
        ))}
        {xTicks.map((t) => (
          <text key={t} x={x(t)} y={height - PAD.bottom + 18} textAnchor="middle" className="tick">
            {t}
          </text>
        ))}
        <line x1={PAD.left} x2={width - PAD.right} y1={baseY} y2={baseY} className="axis" />
        <AxisTitles
          x={xLabel}
          y={yLabel}
          leftPx={PAD.left}
          rightPx={width - PAD.right}
          topPx={top}
          bottomPx={height - PAD.bottom}
          heightPx={height}
        />
        {isFiniteNumber(currentX) && (
          <g data-testid="current-x">
            <rect
              x={x(currentX) - 7}
              y={top - 6}
              width={14}
              height={height - PAD.bottom - top + 6}
              className="current-x-band"
            />
            <line
              x1={x(currentX)}
              x2={x(currentX)}
              y1={top - 6}
              y2={height - PAD.bottom}
              className="current-x"
            />
            <text x={x(currentX)} y={top - 10} textAnchor="middle" className="current-x-label">
              now {currentX}
            </text>
          </g>
        )}
        {lines.map((c, i) => {
          const d = path(c.points);
          const colour = c.colour ?? MODEL_SHADES[i % MODEL_SHADES.length];
          return (
            d && (
              <g key={c.id} data-testid="curve">
                <path
                  d={d}
                  className="model-line"
                  stroke={colour}
                  strokeDasharray={dashOf(c)}
                  data-kind="model"
                />
              </g>
            )
          );
        })}
        {dots.map((p, i) => {
          const kind = kindOf(p.source);
          const markY = seriesMarkY.get(i);
          const lo = isFiniteNumber(p.min) ? p.min : p.y;
          const hi = isFiniteNumber(p.max) ? p.max : p.y;
          const cx = x(p.x);
          return (
            <g key={i} data-testid="point">
              {lo !== hi && (
                <path
                  d={`M${cx - 4},${y(lo)}h8M${cx},${y(lo)}V${y(hi)}M${cx - 4},${y(hi)}h8`}
                  className={`spread ${kind}`}
                  data-kind={kind}
                />
              )}
              <RunMark kind={kind} cx={cx} cy={y(p.y)} data={{}} />
              {p.series !== undefined && props.series?.[p.series] && (
                <text x={cx + 7} y={markY} className="series-mark" data-series={p.series}>
                  {props.series[p.series].mark}
                </text>
              )}
            </g>
          );
        })}
        <g transform="translate(0,14)">
          {legend.map((e) => (
            <g
              key={e.label}
              transform={`translate(${e.x},${e.row * LEGEND_ROW})`}
              data-testid="legend-item"
            >
              {'curve' in e ? (
                <line
                  x1={0}
                  x2={20}
                  y1={0}
                  y2={0}
                  className="model-line"
                  stroke={lines[e.curve].colour ?? MODEL_SHADES[e.curve % MODEL_SHADES.length]}
                  strokeDasharray={dashOf(lines[e.curve])}
                />
              ) : e.kind === 'series' ? (
                <text x={6} y={5} className="series-mark">
                  {e.mark}
                </text>
              ) : (
                <RunMark kind={e.kind} cx={10} cy={0} />
              )}
              <text x={26} y={5} className="legend">
                {fitLabel(e.label, width - PAD.right - e.x - 26)}
                <title>{e.label}</title>
              </text>
            </g>
          ))}
        </g>
      </svg>
      <ChartTable
        xLabel={xLabel}
        yLabel={yLabel}
        curves={lines}
        points={dots}
        series={props.series}
      />
    </figure>
  );
}

/** The chart's numbers as tables, for a screen reader or anyone who wants the values: each curve's
 * points, and each run with its spread and where it came from. */
function ChartTable(p: {
  xLabel: string;
  yLabel: string;
  curves: ModelChartProps['curves'];
  points: ModelChartProps['points'];
  series?: ModelChartProps['series'];
}) {
  const xs = [...new Set(p.curves.flatMap((c) => c.points.map(([x]) => x)))].sort((a, b) => a - b);
  const format = (v: number | undefined) => (isFiniteNumber(v) ? v.toPrecision(4) : '');
  return (
    <details className="chart-data">
      <summary>The chart&apos;s numbers, as tables</summary>
      {p.curves.length > 0 && (
        <table>
          <caption>Model curves: {p.yLabel}</caption>
          <thead>
            <tr>
              <th scope="col">{p.xLabel}</th>
              {p.curves.map((c) => (
                <th key={c.id} scope="col">
                  {c.label} (model)
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {xs.map((x) => (
              <tr key={x}>
                <th scope="row">{x}</th>
                {p.curves.map((c) => (
                  <td key={c.id}>{format(c.points.find(([cx]) => cx === x)?.[1])}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {p.points.length > 0 && (
        <table>
          <caption>Runs: {p.yLabel}</caption>
          <thead>
            <tr>
              <th scope="col">{p.xLabel}</th>
              <th scope="col">median</th>
              <th scope="col">slowest</th>
              <th scope="col">fastest</th>
              <th scope="col">where from</th>
            </tr>
          </thead>
          <tbody>
            {p.points.map((pt, i) => (
              <tr key={i}>
                <th scope="row">{pt.x}</th>
                <td>{format(pt.y)}</td>
                <td>{format(pt.min)}</td>
                <td>{format(pt.max)}</td>
                <td>
                  {kindOf(pt.source)}
                  {pt.series !== undefined && p.series?.[pt.series]
                    ? `, ${p.series[pt.series].label}`
                    : ''}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </details>
  );
}

/** The stroke pattern of a curve: solid, dashed (a second reading) or dotted (a third). */
function dashOf(c: { dashed?: boolean; dotted?: boolean }): string | undefined {
  return c.dotted ? '2 4' : c.dashed ? '7 5' : undefined;
}

/** At most as wide as its box (fitWidth.tsx): a phone or a course column reflows it. */
export const ModelChart = fitted(ModelChartDrawing, 'width', 640);
