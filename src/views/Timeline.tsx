// One lane per worker over the last windowUs, scrolling as nowUs advances: busy in the stage's
// colour, idle light grey, blocked red hatching, stealing purple, ready (a barrier run's thread
// waiting for a core) pale blue; a legend and a time axis in ms. A segment with a share is one
// part of a column (src/live/laneColumns.ts): the parts stack bottom to top, each as tall as its
// share of the column's time, so a state's drawn area is its real share of the lane's time. The
// drawing is as wide as its box allows (useFitWidth); given the whole run's lanes (a run that
// ended), it can be zoomed and scrolled over all of it (TimelineExplorer).
import { HatchPattern, useHatchId } from './HatchPattern';
import { scaleLinear } from 'd3';
import { clipToWindow, legendRows } from './chartLayout';
import { stageColor } from './stageColors';
import { TimelineExplorer, useExplorer, type TimelineHistory } from './TimelineExplorer';
import { useFitWidth } from './fitWidth';
import { isFiniteNumber, kindOf } from './viewHelpers';
import './views.css';

export interface TimelineSegment {
  startUs: number;
  endUs: number;
  state: 'busy' | 'idle' | 'blocked' | 'stealing' | 'ready';
  stage: number | null;
  /** The fraction of the segment's span spent in this state (1 when absent); the parts of one
   * column share its bounds and follow each other. */
  share?: number;
}

export interface TimelineProps {
  /** Segments per worker in time order, index = worker; the last may end at nowUs. */
  lanes: TimelineSegment[][];
  /** Stage names for the legend, index = stage. */
  stageNames: string[];
  /** Time at the right edge, µs since the run started. */
  nowUs: number;
  /** Span shown, µs. */
  windowUs: number;
  /** Where the segments come from: real threads or the simulation. */
  source: 'threads' | 'simulation';
  /** Width of the drawing, px. */
  width?: number;
  /** Lane names, index = lane (default "worker i"). */
  laneLabels?: string[];
  /** Legend words for the waiting states; a state named null is left out of the legend, and so
   * is `ready` unless named (only the barrier runtime's lanes have it). */
  stateNames?: Partial<Record<Exclude<TimelineSegment['state'], 'busy'>, string | null>>;
  /** Colour of busy segments by their `stage` index (default: the stage palette). */
  busyColor?: (index: number) => string;
  /** The whole run's lanes (a run that ended or paused): the timeline offers zoom and scroll
   * over all of it. */
  history?: TimelineHistory<TimelineSegment> | null;
}

const LABEL = 76;
const RIGHT = 24;
const LANE = 22;
const GAP = 4;
const LEGEND_ROW = 22;
const STATE_CLASS: Record<TimelineSegment['state'], string> = {
  busy: 'seg-busy',
  idle: 'seg-idle',
  blocked: 'seg-blocked',
  stealing: 'seg-stealing',
  ready: 'seg-ready',
};

export function Timeline(props: TimelineProps) {
  const explorer = useExplorer(props.history ?? null, props);
  const [ref, width] = useFitWidth<HTMLDivElement>(props.width ?? 760);
  if (!(width > 0)) return null;
  const shown = explorer.view ?? props;
  return (
    <div ref={ref} className="timeline-box">
      {explorer.controls && <TimelineExplorer {...explorer.controls} />}
      <TimelineDrawing
        {...props}
        lanes={shown.lanes}
        nowUs={shown.nowUs}
        windowUs={shown.windowUs}
        width={width}
      />
    </div>
  );
}

/** Groups a lane's segments into columns: neighbours with the same bounds are parts of one. */
function columnsOf<S extends { startUs: number; endUs: number }>(segments: S[]): S[][] {
  const out: S[][] = [];
  for (const s of segments) {
    const last = out.at(-1);
    if (last && last[0].startUs === s.startUs && last[0].endUs === s.endUs) last.push(s);
    else out.push([s]);
  }
  return out;
}

function TimelineDrawing({
  lanes,
  stageNames,
  nowUs,
  windowUs,
  source,
  width = 760,
  laneLabels,
  stateNames = {},
  busyColor = stageColor,
}: TimelineProps) {
  const hatchId = useHatchId('hatch');
  const kind = kindOf(source);
  if (lanes.length === 0 || !isFiniteNumber(nowUs) || !isFiniteNumber(windowUs) || windowUs <= 0) {
    return (
      <svg
        className="timeline"
        width={width}
        height={48}
        role="img"
        aria-label="No thread activity yet"
      >
        <text x={width / 2} y={28} textAnchor="middle" className="hint">
          No thread activity yet: start a run to see what each thread does.
        </text>
      </svg>
    );
  }
  const waits = [
    { state: 'idle' as const, fill: undefined, className: 'seg-idle' },
    { state: 'blocked' as const, fill: `url(#${hatchId})`, className: 'seg-blocked' },
    { state: 'stealing' as const, fill: undefined, className: 'seg-stealing' },
    { state: 'ready' as const, fill: undefined, className: 'seg-ready' },
  ].flatMap(({ state, ...mark }) => {
    const label = state === 'ready' ? (stateNames.ready ?? null) : stateNames[state];
    return label === null ? [] : [{ ...mark, label: label ?? state }];
  });
  const legend = legendRows(
    [
      ...stageNames.map((label, i) => ({ label, fill: busyColor(i), className: 'seg-busy' })),
      ...waits,
    ],
    LABEL,
    width,
  );
  const legendH = (legend.at(-1)?.row ?? 0) * LEGEND_ROW + LEGEND_ROW + 6;
  const t0Us = nowUs >= 0 ? Math.max(0, nowUs - windowUs) : nowUs - windowUs;
  const x = scaleLinear()
    .domain([t0Us / 1000, (t0Us + windowUs) / 1000])
    .range([LABEL, width - RIGHT]);
  const lanesTop = legendH;
  const axisY = lanesTop + lanes.length * (LANE + GAP) + 2;
  const height = axisY + 40;
  const tickMs = x.tickFormat(6);
  const clipped = lanes.map((segments) => clipToWindow(segments, t0Us, nowUs));
  const totalUs = { busy: 0, idle: 0, blocked: 0, stealing: 0, ready: 0 };
  for (const s of clipped.flat()) totalUs[s.state] += (s.endUs - s.startUs) * shareOf(s);
  const spanUs = Math.max(1, (nowUs - t0Us) * lanes.length);
  const shares = (Object.keys(totalUs) as Array<keyof typeof totalUs>)
    // The states the legend names (busy and every waiting state not named null)
    .filter((k) => k === 'busy' || waits.some((w) => w.className === STATE_CLASS[k]))
    .map((k) => `${k} ${Math.round((100 * totalUs[k]) / spanUs)}%`)
    .join(', ');
  return (
    <svg
      className="timeline"
      width={width}
      height={height}
      role="img"
      aria-label={`Timeline of ${lanes.length} workers over ${Math.round(windowUs / 1000)} ms to ${Math.round(nowUs / 1000)} ms (${kind}): ${shares}`}
    >
      <defs>
        <HatchPattern id={hatchId} />
      </defs>
      {legend.map((item, k) => (
        <g
          key={k}
          transform={`translate(${item.x},${item.row * LEGEND_ROW})`}
          data-testid="legend-item"
        >
          <rect y={4} width={14} height={14} fill={item.fill} className={item.className} />
          <text x={19} y={16} className="legend">
            {item.label}
          </text>
        </g>
      ))}
      {clipped.map((segments, w) => {
        const y = lanesTop + w * (LANE + GAP);
        return (
          <g key={w} data-testid="lane">
            <text x={0} y={y + LANE / 2 + 5} className="lane-label">
              {laneLabels?.[w] ?? `worker ${w}`}
            </text>
            <rect
              x={LABEL}
              y={y}
              width={width - RIGHT - LABEL}
              height={LANE}
              className="lane-track"
            />
            {columnsOf(segments).flatMap((parts, c) => {
              // Stacked from the lane's floor, each part as tall as its share.
              let top = y + LANE;
              return parts.map((s, k) => {
                const h = LANE * shareOf(s);
                top -= h;
                const busy = s.state === 'busy';
                const fill = busy
                  ? busyColor(s.stage ?? 0)
                  : s.state === 'blocked'
                    ? `url(#${hatchId})`
                    : undefined;
                return (
                  <rect
                    key={`${c}-${k}`}
                    x={x(s.startUs / 1000)}
                    y={round2(top)}
                    width={x(s.endUs / 1000) - x(s.startUs / 1000)}
                    height={round2(h)}
                    fill={fill}
                    className={STATE_CLASS[s.state]}
                    data-state={s.state}
                    data-kind={kind}
                  />
                );
              });
            })}
          </g>
        );
      })}
      <line x1={LABEL} x2={width - RIGHT} y1={axisY} y2={axisY} className="axis" />
      {x.ticks(6).map((ms) => (
        <g key={ms} transform={`translate(${x(ms)},${axisY})`}>
          <line y2={5} className="axis" />
          <text y={18} textAnchor="middle" className="tick">
            {tickMs(ms)}
          </text>
        </g>
      ))}
      <text x={width - RIGHT} y={height - 4} textAnchor="end" className="axis-label">
        time since start (ms)
      </text>
    </svg>
  );
}

/** A segment's share of its span (a whole segment when it has none; never outside 0..1). */
function shareOf(s: { share?: number }): number {
  return s.share === undefined || !isFiniteNumber(s.share) ? 1 : Math.min(1, Math.max(0, s.share));
}

const round2 = (v: number) => Math.round(v * 100) / 100;
