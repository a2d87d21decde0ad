// Where a pipeline's thread time went, per station (the paper's Fig. 2): one bar per stage — or
// per fused group of a collapsed pipeline — splitting its threads' time over the run into useful
// work (coloured by stage), idle (waiting for an item), blocked (waiting for room downstream) and
// the rest (starting up, done early); the station that is busiest is marked as the bottleneck.
// D3 computes the scale; React renders the marks.
import { scaleLinear } from 'd3';
import { stageColor } from './stageColors';
import { isFiniteNumber, kindOf, type Source } from './viewHelpers';
import './views.css';
import { fitted } from './fitWidth';

export interface BreakdownStation {
  /** The stages it runs, with their index (for the colour) and useful µs over all its threads. */
  stages: Array<{ index: number; name: string; busyUs: number }>;
  threads: number;
  idleUs: number;
  blockedUs: number;
}

export interface StageBreakdownProps {
  stations: BreakdownStation[];
  /** The run's time so far (or its whole time once done), µs: each thread had this much. */
  runTimeUs: number;
  source: Source;
  /** Width of the drawing, px. */
  width?: number;
}

const ROW_PX = 26;
const LABEL_PX = 150;
const VALUE_PX = 56;
const LEGEND_PX = 22;

/** Each station's share of its threads' time, and which station is the bottleneck. */
export function breakdownShares(stations: BreakdownStation[], runTimeUs: number) {
  const shares = stations.map((s) => {
    const total = s.threads * runTimeUs;
    const busy = s.stages.reduce((sum, st) => sum + st.busyUs, 0);
    const part = (us: number) => (total > 0 && isFiniteNumber(us) ? Math.max(0, us) / total : 0);
    return {
      busy: s.stages.map((st) => part(st.busyUs)),
      useful: part(busy),
      idle: part(s.idleUs),
      blocked: part(s.blockedUs),
    };
  });
  const useful = shares.map((s) => s.useful);
  const bottleneck = useful.some((u) => u > 0) ? useful.indexOf(Math.max(...useful)) : -1;
  return { shares, bottleneck };
}

function StageBreakdownDrawing({ stations, runTimeUs, source, width = 420 }: StageBreakdownProps) {
  const { shares, bottleneck } = breakdownShares(stations, runTimeUs);
  const x = scaleLinear()
    .domain([0, 1])
    .range([0, width - LABEL_PX - VALUE_PX]);
  const kind = kindOf(source);
  const height = stations.length * ROW_PX + LEGEND_PX + 4;
  return (
    <svg
      className="stage-breakdown"
      width={width}
      height={height}
      role="img"
      aria-label={`Useful, idle and blocked time of ${stations.length} stages (${kind})`}
    >
      {stations.map((s, i) => {
        const share = shares[i];
        let at = LABEL_PX;
        const segment = (fraction: number, className: string, key: string, fill?: string) => {
          const w = Math.max(0, x(Math.min(1, fraction)));
          const rect = (
            <rect
              key={key}
              x={at}
              y={4}
              width={w}
              height={ROW_PX - 8}
              className={className}
              fill={fill}
              data-kind={kind}
            />
          );
          at += w;
          return rect;
        };
        const name = s.stages.map((st) => st.name).join(' + ');
        // A fused group shows its first and last stage: "segment…rank".
        const label =
          s.stages.length > 1 ? `${s.stages[0].name}…${s.stages.at(-1)!.name}` : s.stages[0].name;
        return (
          <g
            key={name}
            transform={`translate(0,${i * ROW_PX})`}
            data-testid="breakdown-stage"
            data-stage={name}
            data-useful={share.useful}
            data-idle={share.idle}
            data-blocked={share.blocked}
            data-bottleneck={i === bottleneck ? 'true' : undefined}
          >
            <text x={0} y={ROW_PX / 2 + 4} className="label">
              {i === bottleneck ? '▶ ' : ''}
              {label.length > 20 ? `${label.slice(0, 19)}…` : label} ×{s.threads}
            </text>
            <rect x={LABEL_PX} y={4} width={x(1)} height={ROW_PX - 8} className="track" />
            {s.stages.map((st, k) =>
              segment(share.busy[k], 'useful', `u${st.index}`, stageColor(st.index)),
            )}
            {segment(share.idle, 'idle', 'idle')}
            {segment(share.blocked, 'blocked', 'blocked')}
            <text x={width - VALUE_PX + 6} y={ROW_PX / 2 + 4} className="value">
              {(share.useful * 100).toFixed(0)}%
            </text>
            {i === bottleneck && <title>bottleneck: the busiest stage</title>}
          </g>
        );
      })}
      <g transform={`translate(0,${stations.length * ROW_PX + 14})`} className="legend">
        {/* Useful time is drawn in each stage's own colour: the key shows the first three. */}
        {[0, 1, 2].map((k) => (
          <rect key={k} x={k * 5} y={-9} width={5} height={10} fill={stageColor(k)} />
        ))}
        <text x={19} y={0}>
          useful
        </text>
        <rect x={75} y={-9} width={10} height={10} className="idle" />
        <text x={89} y={0}>
          idle
        </text>
        <rect x={125} y={-9} width={10} height={10} className="blocked" />
        <text x={139} y={0}>
          blocked
        </text>
        <text x={205} y={0}>
          ▶ bottleneck
        </text>
      </g>
    </svg>
  );
}

/** At most as wide as its box (fitWidth.tsx): a phone or a course column reflows it. */
export const StageBreakdown = fitted(StageBreakdownDrawing, 'width', 420);
