// The stream graph of a phaser run, live: tasks as nodes (their phase counter, and the thread
// running each one in that thread's colour), streams as buffers between them showing how many of
// their `bound` phases are full, new tasks appearing as the sieve spawns them. Layout comes from
// streamGraphLayout.ts; this component only renders marks.
import type { BoardStream, BoardTask } from '../telemetry';
import {
  batchNote,
  bufferLabel,
  bufferLeft,
  layoutStreamGraph,
  SLOT_PX,
  taskLabel as nodeLabel,
  type ChainGap,
  type NodeBox,
  type Point,
  type StreamBox,
} from './streamGraphLayout';
import { threadColor } from './threadColors';
import { kindOf } from './viewHelpers';
import type { ExperimentSpec } from '../spec/experimentSpec';
import { DEFAULTS } from '../spec/limits';
import './views.css';
import { fitted } from './fitWidth';

export interface StreamGraphViewProps {
  spec: ExperimentSpec;
  tasks: BoardTask[];
  streams: BoardStream[];
  /** The run stopped because no task could run. */
  stalled: boolean;
  source: 'threads' | 'simulation';
  /** Width of the drawing, px. */
  width?: number;
}

const LEGEND_H = 30;

const STATE_WORDS: Record<BoardTask['state'], string> = {
  new: 'not started',
  running: 'running',
  'waiting-input': 'waiting for input',
  'waiting-bound': 'waiting at the bound',
  yielded: 'ready (gave its thread away)',
  done: 'done',
};

function TaskNode({ spec, n, compact }: { spec: ExperimentSpec; n: NodeBox; compact: boolean }) {
  const t = n.task;
  const running = t.state === 'running';
  const fill = running && t.thread !== null ? threadColor(t.thread) : undefined;
  return (
    <g
      transform={`translate(${n.x},${n.y})`}
      data-testid="task-node"
      data-task={t.id}
      data-state={t.state}
      data-thread={t.thread ?? ''}
      data-phase={t.phase}
    >
      <title>
        {`${nodeLabel(spec, t)}: ${STATE_WORDS[t.state]}${t.thread === null ? '' : ` (thread ${t.thread})`}, ${t.phase} elements served`}
      </title>
      {/* A style, not a fill attribute: the stylesheet's .task-box fill would win over one. */}
      <rect
        width={n.w}
        height={n.h}
        rx={6}
        style={fill ? { fill } : undefined}
        className={`task-box ${t.state}`}
      />
      <text x={n.w / 2} y={compact ? 15 : 18} textAnchor="middle" className="task-name">
        {nodeLabel(spec, t)}
      </text>
      <text x={n.w / 2} y={compact ? 30 : 35} textAnchor="middle" className="task-phase">
        {compact ? t.phase : `${t.phase} served`}
        {!compact && t.thread !== null ? ` · T${t.thread}` : ''}
      </text>
    </g>
  );
}

/** Where a stream's line meets a task's box: its bottom or top middle when the buffer lies right
 * under or over the box (the sieve's ends), else its right side (out of the task) or left (into it). */
function edgePoint(n: NodeBox, s: StreamBox, out: boolean): { x: number; y: number } {
  const inColumn = s.x >= n.x && s.x <= n.x + n.w;
  if (inColumn && s.y > n.y + n.h) return { x: n.x + n.w / 2, y: n.y + n.h };
  if (inColumn && s.y < n.y) return { x: n.x + n.w / 2, y: n.y };
  return { x: out ? n.x + n.w : n.x, y: n.y + n.h / 2 };
}

const polyline = (points: Point[]) => points.map((p) => `${p.x},${p.y}`).join(' ');

/** The sieve chain's left-out middle: a dashed box saying how many filters it stands for. */
function GapBox({ gap }: { gap: ChainGap }) {
  return (
    <g data-testid="chain-gap" data-hidden={gap.hidden}>
      <title>{`${gap.hidden} filter tasks of the middle of the chain, not drawn`}</title>
      {gap.links.map((points, k) => (
        <polyline key={k} points={polyline(points)} className="flow gap" />
      ))}
      <rect x={gap.x} y={gap.y} width={gap.w} height={gap.h} rx={6} className="chain-gap" />
      <text x={gap.x + gap.w / 2} y={gap.y + 15} textAnchor="middle" className="task-name">
        +{gap.hidden}
      </text>
      <text x={gap.x + gap.w / 2} y={gap.y + 30} textAnchor="middle" className="task-phase">
        filters
      </text>
    </g>
  );
}

function StreamBuffer(props: {
  s: StreamBox;
  bound: number;
  slots: number;
  labelPx: number;
  width: number;
}) {
  const { s, bound, slots, labelPx, width } = props;
  const full = Math.max(0, Math.min(bound, s.stream.signalled - s.stream.waited));
  const w = slots * SLOT_PX;
  const left = bufferLeft(s.x, slots, width, labelPx);
  const filled = Math.round((full / bound) * slots);
  // A cycle's note is said once under the graph: on every buffer of a ring it overlapped the next.
  const note = !s.stream.cyclic && s.stream.batched ? batchNote(s.stream.batch) : '';
  return (
    <g
      transform={`translate(${left},${s.y - SLOT_PX / 2})`}
      data-testid="stream-buffer"
      data-full={full}
      data-bound={bound}
      data-cyclic={s.stream.cyclic}
    >
      <title>{`${full} of ${bound} phases full${s.stream.cyclic ? ' (cycle: 1/phase)' : note ? ` (${note})` : ''}`}</title>
      {Array.from({ length: slots }, (_, i) => (
        <rect
          key={i}
          x={i * SLOT_PX}
          width={SLOT_PX - 1}
          height={SLOT_PX}
          className={i < filled ? 'buffer-slot full' : 'buffer-slot'}
        />
      ))}
      <text x={w + 4} y={SLOT_PX} className="buffer-label">
        {bufferLabel(full, bound, note)}
      </text>
    </g>
  );
}

function StreamGraphViewDrawing({
  spec,
  tasks,
  streams,
  stalled,
  source,
  width = 900,
}: StreamGraphViewProps) {
  const layout = layoutStreamGraph(spec, tasks, streams, width);
  const bound = spec.bound ?? DEFAULTS.bound;
  const cycle = layout.streams.some((s) => s.stream.cyclic);
  const compact = layout.kind === 'sieve';
  const threads = Array.from({ length: spec.threads }, (_, i) => i);
  const height = LEGEND_H + layout.height + (layout.hidden || cycle ? 22 : 0) + 8;
  const kind = kindOf(source);
  const running = tasks.filter((t) => t.state === 'running').length;
  return (
    <svg
      className="stream-graph"
      data-testid="stream-graph"
      data-kind={kind}
      data-tasks={tasks.length}
      data-stalled={stalled}
      width={width}
      height={height}
      role="img"
      aria-label={`Stream graph (${kind}): ${tasks.length} tasks, ${running} running on ${spec.threads} threads`}
    >
      <g className="legend">
        {threads.map((w) => (
          <g key={w} transform={`translate(${w * 86},4)`}>
            <rect width={14} height={14} fill={threadColor(w)} />
            <text x={19} y={12}>
              thread {w}
            </text>
          </g>
        ))}
        <g transform={`translate(${threads.length * 86},4)`}>
          <rect width={14} height={14} className="task-box waiting-input" />
          <text x={19} y={12}>
            parked: waiting for input
          </text>
          <rect x={190} width={14} height={14} className="task-box waiting-bound" />
          <text x={209} y={12}>
            parked: at the bound
          </text>
        </g>
      </g>
      <g transform={`translate(0,${LEGEND_H})`}>
        {layout.streams.map((s) =>
          s.route ? (
            <polyline key={s.stream.id} points={polyline(s.route)} className="flow" />
          ) : (
            [...s.from.map((n) => [n, true] as const), ...s.to.map((n) => [n, false] as const)].map(
              ([n, out], k) => {
                const end = edgePoint(n, s, out);
                return (
                  <line
                    key={`${s.stream.id}-${k}`}
                    x1={out ? end.x : s.x}
                    y1={out ? end.y : s.y}
                    x2={out ? s.x : end.x}
                    y2={out ? s.y : end.y}
                    className={s.stream.cyclic ? 'flow cyclic' : 'flow'}
                  />
                );
              },
            )
          ),
        )}
        {layout.gap && <GapBox gap={layout.gap} />}
        {layout.nodes.map((n) => (
          <TaskNode
            key={n.task.id}
            spec={spec}
            n={n}
            compact={compact && spec.stages[n.task.stage].op === 'sieve'}
          />
        ))}
        {layout.streams
          .filter((s) => !compact || s.stream.specIndex !== null)
          .map((s) => (
            <StreamBuffer
              key={s.stream.id}
              s={s}
              bound={bound}
              slots={layout.slots}
              labelPx={layout.labelPx}
              width={width}
            />
          ))}
        {layout.hidden > 0 && (
          <text x={width / 2} y={layout.height + 14} textAnchor="middle" className="hint">
            The dashed box stands for {layout.hidden} more filter tasks in the middle of the chain.
          </text>
        )}
        {cycle && (
          <text x={width / 2} y={layout.height + 14} textAnchor="middle" className="hint">
            The streams form a cycle, so batching is off: each signal passes 1 phase.
          </text>
        )}
      </g>
      {stalled && (
        <text x={width / 2} y={height - 6} textAnchor="middle" className="stalled">
          Stalled: no task can run. The run was stopped.
        </text>
      )}
    </svg>
  );
}

/** At most as wide as its box (fitWidth.tsx): a phone or a course column reflows it. */
export const StreamGraphView = fitted(StreamGraphViewDrawing, 'width', 900);
