// A pipeline right now: stages as boxes left to right with their threads (filled = busy, hollow =
// idle), the queue in front of each later stage, items done per stage, idle stages as bubbles; for
// work-stealing runtimes a pool of workers coloured by the stage each serves. Bubbles are a running
// pipeline's: paused or ended, no stage is marked as one, and a paused pipeline says so.
import type { Runtime, StageMode } from '../spec/experimentSpec';
import type { StageCounters } from '../telemetry';
import { QueueBar } from './QueueBar';
import { stageColor } from './stageColors';
import { formatCount, isFiniteNumber, kindOf } from './viewHelpers';
import './views.css';
import { fitted } from './fitWidth';

export interface PipelineViewProps {
  /** Which runtime runs the pipeline, named in the drawing's description. */
  runtime: Runtime;
  /** Its workers are a pool that serves any stage (work stealing: its module says so): drawn as
   * one row of workers coloured by their stage instead of threads per stage. */
  workerPool?: boolean;
  /** The stages in order, with the threads each has (static and collapsed runtimes). */
  stages: Array<{ name: string; mode: StageMode; threads: number }>;
  /** Live counters, index = stage. */
  counters: StageCounters[];
  /** What each queue's cells show (default: the counters' occupancy). A page that redraws its
   * drawings less often than its numbers (reduced motion) passes the occupancy of its last
   * redraw, so the cells do not flicker at the numbers' rate. */
  queueOccupancy?: number[];
  /** Threads serving each stage right now, index = stage. */
  busyByStage: number[];
  /** Items each queue holds; null = unbounded. */
  queueCapacity: number | null;
  /** Work-stealing: the stage each worker serves now (null = idle), index = worker. */
  workerStage?: Array<number | null>;
  /** Where the numbers come from: real threads or the simulation. */
  source: 'threads' | 'simulation';
  /** Whether the run is going (default), parked by Pause, or over (or not started). */
  runState?: 'running' | 'paused' | 'ended';
  /** Width of the drawing, px. */
  width?: number;
}

const BOX_TOP = 30;
const DOT = 20;
const MAX_DOT_ROWS = 3;
const POOL_DOT = 26;
/** A stage's column is at least this wide (its box with a name, its mode and three thread dots,
 * and its queue): a narrower drawing (a phone) wraps the stages onto more rows. */
const MIN_COLUMN_PX = 118;
const MODE_LABEL: Record<StageMode, string> = {
  'serial-in-order': 'serial, ordered',
  'serial-out-of-order': 'serial',
  parallel: 'parallel',
};

function PipelineViewDrawing(props: PipelineViewProps) {
  const { runtime, stages, counters, busyByStage, queueCapacity, source, width = 760 } = props;
  const runState = props.runState ?? 'running';
  const kind = kindOf(source);
  const n = stages.length;
  if (n === 0) {
    return (
      <svg
        className="pipeline-view"
        width={width}
        height={48}
        role="img"
        aria-label="No pipeline yet"
      >
        <text x={width / 2} y={28} textAnchor="middle" className="hint">
          No pipeline yet: press Run to start one.
        </text>
      </svg>
    );
  }
  const stealing = props.workerPool ?? false;
  const perRow = Math.max(1, Math.min(n, Math.floor((width - 8) / MIN_COLUMN_PX)));
  const rows = Math.ceil(n / perRow);
  const colW = (width - 8) / perRow;
  const queueW = Math.min(64, colW * 0.34);
  const boxW = colW - queueW - 6;
  const dotsPerRow = Math.max(1, Math.floor((boxW - 12) / DOT));
  const threadsOf = (i: number) => Math.max(0, Math.floor(finiteOr(stages[i].threads, 0)));
  const dotRows = stealing
    ? 1
    : Math.max(
        1,
        ...stages.map((_, i) => Math.min(MAX_DOT_ROWS, Math.ceil(threadsOf(i) / dotsPerRow))),
      );
  const boxH = 54 + dotRows * DOT;
  const midY = BOX_TOP + boxH / 2;
  const occupancy = props.queueOccupancy ?? counters.map((c) => c?.queueOccupancy);
  const unboundedScale = Math.max(16, ...occupancy.filter(isFiniteNumber));
  const workers = stealing ? (props.workerStage ?? []) : [];
  const poolPerRow = Math.max(1, Math.floor((width - 90) / POOL_DOT));
  /** One row of stages: their boxes and the counts under them. */
  const rowH = BOX_TOP + boxH + 30;
  const poolTop = rows * rowH + 14;
  const height = stealing
    ? poolTop + Math.max(1, Math.ceil(workers.length / poolPerRow)) * POOL_DOT + 4
    : rows * rowH;
  const busyOf = (i: number) => (isFiniteNumber(busyByStage[i]) ? busyByStage[i] : null);
  const bubbleAt = (i: number) => runState === 'running' && busyOf(i) === 0;
  const idleNames = stages.filter((_, i) => bubbleAt(i)).map((s) => s.name);
  const summary =
    `${runtime} pipeline of ${n} stages (${kind}): ` +
    stages.map((s, i) => `${s.name} ${busyOf(i) ?? '?'} busy`).join(', ') +
    (runState === 'paused'
      ? '; paused'
      : runState === 'ended'
        ? '; not running'
        : idleNames.length
          ? `; bubbles at ${idleNames.join(', ')}`
          : '; no bubbles');
  return (
    <svg className="pipeline-view" width={width} height={height} role="img" aria-label={summary}>
      {runState === 'paused' && (
        <text x={4} y={14} className="paused-label" data-testid="paused-label">
          Paused: every thread has parked after the item in hand. Resume carries on.
        </text>
      )}
      {stages.map((stage, i) => {
        const colX = 4 + (i % perRow) * colW;
        const boxX = colX + queueW;
        const busy = busyOf(i);
        const idle = bubbleAt(i);
        const slots = dotsPerRow * MAX_DOT_ROWS;
        const shown = threadsOf(i) > slots ? slots - 1 : threadsOf(i);
        return (
          <g
            key={i}
            data-testid="stage"
            data-idle={idle ? 'true' : 'false'}
            transform={i >= perRow ? `translate(0,${Math.floor(i / perRow) * rowH})` : undefined}
          >
            <line x1={colX} x2={boxX - 2} y1={midY} y2={midY} className="flow" />
            <path d={`M${boxX - 2},${midY}l-8,-5v10z`} className="flow-head" />
            {i > 0 && (
              <QueueBar
                occupancy={occupancy[i]}
                capacity={queueCapacity}
                unboundedScale={unboundedScale}
                cx={colX + queueW / 2 - 3}
                y={BOX_TOP + 20}
                height={boxH - 20}
                kind={kind}
              />
            )}
            <rect
              x={boxX}
              y={BOX_TOP}
              width={boxW}
              height={boxH}
              rx={8}
              className={idle ? 'stage-box idle' : 'stage-box'}
            />
            <rect x={boxX} y={BOX_TOP} width={boxW} height={6} fill={stageColor(i)} />
            <text x={boxX + 8} y={BOX_TOP + 24} className="stage-name">
              {fit(stage.name, boxW - 10)}
            </text>
            <text x={boxX + 8} y={BOX_TOP + 41} className="stage-mode">
              {boxW >= 112 ? (MODE_LABEL[stage.mode] ?? stage.mode) : stage.mode.split('-')[0]}
            </text>
            {idle && (
              <text x={boxX + boxW - 4} y={BOX_TOP - 6} textAnchor="end" className="bubble-label">
                idle: bubble
              </text>
            )}
            {stealing ? (
              <text x={boxX + 8} y={BOX_TOP + 62} className="stage-mode">
                {busy === null ? '–' : `${busy} busy`}
              </text>
            ) : (
              Array.from({ length: shown }, (_, t) => (
                <circle
                  key={t}
                  cx={boxX + 16 + (t % dotsPerRow) * DOT}
                  cy={BOX_TOP + 58 + Math.floor(t / dotsPerRow) * DOT}
                  r={7}
                  className={busy !== null && t < busy ? 'thread busy' : 'thread'}
                  style={busy !== null && t < busy ? { fill: stageColor(i) } : undefined}
                  data-kind={kind}
                />
              ))
            )}
            {!stealing && threadsOf(i) > shown && (
              <text
                x={boxX + 16 + (shown % dotsPerRow) * DOT}
                y={BOX_TOP + 62 + Math.floor(shown / dotsPerRow) * DOT}
                textAnchor="middle"
                className="stage-mode"
              >
                +{threadsOf(i) - shown}
              </text>
            )}
            <text x={boxX + boxW / 2} y={BOX_TOP + boxH + 20} textAnchor="middle" className="done">
              <tspan data-kind={kind}>{formatCount(counters[i]?.itemsOut)}</tspan> done
            </text>
          </g>
        );
      })}
      {stealing && (
        <g data-testid="worker-pool">
          <text x={4} y={poolTop + 4} className="stage-mode">
            workers
          </text>
          {workers.map((s, w) => {
            const serving = s !== null && isFiniteNumber(s) && s >= 0 && s < n;
            return (
              <circle
                key={w}
                cx={90 + (w % poolPerRow) * POOL_DOT}
                cy={poolTop + Math.floor(w / poolPerRow) * POOL_DOT}
                r={9}
                className={serving ? 'worker busy' : 'worker'}
                style={serving ? { fill: stageColor(s) } : undefined}
                data-kind={kind}
                data-stage={serving ? s : 'idle'}
              >
                <title>{`worker ${w}: ${serving ? stages[s].name : 'idle'}`}</title>
              </circle>
            );
          })}
        </g>
      )}
    </svg>
  );
}

function finiteOr(x: number, fallback: number): number {
  return isFiniteNumber(x) ? x : fallback;
}

/** `text` cut with an ellipsis to fit `widthPx` at the stage-name size (about 8.5 px a letter). */
function fit(text: string, widthPx: number): string {
  const letters = Math.max(1, Math.floor(widthPx / 8.5));
  return text.length <= letters ? text : `${text.slice(0, letters - 1)}…`;
}

/** At most as wide as its box (fitWidth.tsx): a phone or a course column reflows it. */
export const PipelineView = fitted(PipelineViewDrawing, 'width', 760);
