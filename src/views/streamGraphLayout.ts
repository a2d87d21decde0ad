// Where the stream-graph view puts each task and stream (pure, no DOM): a graph with a source in
// columns by depth (a stage's longest chain of streams from a source; copies and branches stacked),
// a ring on a circle, and the sieve as its growing chain of filter tasks wrapping in rows between
// the numbers and the primes. Positions are px in a drawing `width` wide.
import type { ExperimentSpec } from '../spec/experimentSpec';
import { streamGraph } from '../spec/phaserGraph';
import type { BoardStream, BoardTask } from '../telemetry';

/** A task's name on screen: its stage, a copy's index (split#2), a sieve filter's prime (filter(7),
 * filter(?) before it has one). */
export function taskLabel(spec: ExperimentSpec, t: BoardTask): string {
  const s = spec.stages[t.stage];
  if (!s) return `task ${t.id}`;
  if (s.op === 'sieve') return t.label ? `${s.name}(${t.label})` : `${s.name}(?)`;
  return s.threads > 1 ? `${s.name}#${t.label}` : s.name;
}

export interface NodeBox {
  task: BoardTask;
  x: number;
  y: number;
  w: number;
  h: number;
}
/** A stream drawn as a small buffer between its producers and consumers. */
export interface StreamBox {
  stream: BoardStream;
  /** Centre of its buffer, px. */
  x: number;
  y: number;
  from: NodeBox[];
  to: NodeBox[];
}
export interface GraphLayout {
  kind: 'dag' | 'ring' | 'sieve';
  nodes: NodeBox[];
  streams: StreamBox[];
  height: number;
  /** Sieve tasks left out to fit (the middle of a long chain), or 0. */
  hidden: number;
}

const NODE_W = 104;
const NODE_H = 44;
const ROW_GAP = 22;
const SIEVE_W = 64;
const SIEVE_H = 38;
const SIEVE_GAP = 14;
/** The sieve's chain shows its first filters and its newest ones, at most this many in all. */
export const MAX_SIEVE_NODES = 48;

const centre = (n: NodeBox) => ({ x: n.x + n.w / 2, y: n.y + n.h / 2 });
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

function streamBoxes(streams: BoardStream[], nodes: NodeBox[], spec: ExperimentSpec): StreamBox[] {
  const byTask = new Map(nodes.map((n) => [n.task.id, n]));
  const names = spec.stages.map((s) => s.name);
  return streams.flatMap((stream) => {
    let from: NodeBox[];
    let to: NodeBox[];
    if (stream.specIndex !== null) {
      const st = spec.streams![stream.specIndex];
      const of = (stages: string[]) =>
        nodes.filter((n) => stages.includes(names[n.task.stage]) && n.task.parent === null) ?? [];
      from = of(st.from);
      to = of(st.to);
      // A sieve's primes stream: drawn from its newest task (the one signalling it now).
      if (spec.stages[names.indexOf(st.from[0])].op === 'sieve') {
        const sieve = nodes.filter((n) => names[n.task.stage] === st.from[0]);
        from = sieve.slice(-1);
      }
    } else {
      const a = stream.fromTask === null ? undefined : byTask.get(stream.fromTask);
      const b = stream.toTask === null ? undefined : byTask.get(stream.toTask);
      if (!a || !b) return [];
      from = [a];
      to = [b];
    }
    if (from.length === 0 || to.length === 0) return [];
    const a = { x: mean(from.map((n) => centre(n).x)), y: mean(from.map((n) => centre(n).y)) };
    const b = { x: mean(to.map((n) => centre(n).x)), y: mean(to.map((n) => centre(n).y)) };
    return [{ stream, x: (a.x + b.x) / 2, y: (a.y + b.y) / 2, from, to }];
  });
}

/** Longest chain of streams from a source to each stage. */
function depths(spec: ExperimentSpec): number[] {
  const streams = spec.streams!;
  const g = streamGraph(spec.stages, streams);
  const names = spec.stages.map((s) => s.name);
  const depth = spec.stages.map(() => 0);
  for (let round = 0; round < spec.stages.length; round++)
    spec.stages.forEach((_, s) => {
      for (const k of g.inputs[s])
        for (const n of streams[k].from) depth[s] = Math.max(depth[s], depth[names.indexOf(n)] + 1);
    });
  return depth;
}

function dagLayout(spec: ExperimentSpec, tasks: BoardTask[], width: number): NodeBox[] {
  const depth = depths(spec);
  const columns = Math.max(...depth) + 1;
  const colW = width / columns;
  const byColumn: BoardTask[][] = Array.from({ length: columns }, () => []);
  for (const t of tasks) byColumn[depth[t.stage]].push(t);
  const rows = Math.max(...byColumn.map((c) => c.length));
  const height = rows * (NODE_H + ROW_GAP);
  return byColumn.flatMap((col, c) =>
    col.map((task, r) => ({
      task,
      x: c * colW + (colW - NODE_W) / 2,
      y: (height - col.length * (NODE_H + ROW_GAP)) / 2 + r * (NODE_H + ROW_GAP) + ROW_GAP / 2,
      w: NODE_W,
      h: NODE_H,
    })),
  );
}

function ringLayout(tasks: BoardTask[], width: number): NodeBox[] {
  const r = Math.min(width / 2 - NODE_W, 40 + tasks.length * 18);
  const cx = width / 2;
  const cy = r + NODE_H;
  return tasks.map((task, i) => {
    const a = -Math.PI / 2 + (2 * Math.PI * i) / tasks.length;
    return {
      task,
      x: cx + r * Math.cos(a) - NODE_W / 2,
      y: cy + r * Math.sin(a) - NODE_H / 2,
      w: NODE_W,
      h: NODE_H,
    };
  });
}

function sieveLayout(spec: ExperimentSpec, tasks: BoardTask[], width: number) {
  const sieveStage = spec.stages.findIndex((s) => s.op === 'sieve');
  const chain = tasks.filter((t) => t.stage === sieveStage);
  const ends = tasks.filter((t) => t.stage !== sieveStage);
  const hidden = Math.max(0, chain.length - MAX_SIEVE_NODES);
  const head = Math.floor(MAX_SIEVE_NODES * 0.75);
  const shown =
    hidden > 0
      ? [...chain.slice(0, head), ...chain.slice(chain.length - (MAX_SIEVE_NODES - head))]
      : chain;
  const left = NODE_W + 24;
  const perRow = Math.max(1, Math.floor((width - 2 * left) / (SIEVE_W + SIEVE_GAP)));
  const rows = Math.max(1, Math.ceil(shown.length / perRow));
  const nodes: NodeBox[] = shown.map((task, i) => {
    const row = Math.floor(i / perRow);
    const col = i % perRow;
    return {
      task,
      x: left + col * (SIEVE_W + SIEVE_GAP),
      y: ROW_GAP / 2 + row * (SIEVE_H + ROW_GAP),
      w: SIEVE_W,
      h: SIEVE_H,
    };
  });
  const height = Math.max(NODE_H + ROW_GAP, rows * (SIEVE_H + ROW_GAP));
  const source = ends.find((t) => spec.stages[t.stage].op === 'count');
  const sink = ends.find((t) => t !== source);
  if (source) nodes.unshift({ task: source, x: 0, y: ROW_GAP / 2, w: NODE_W, h: NODE_H });
  if (sink)
    nodes.push({
      task: sink,
      x: width - NODE_W,
      y: height - NODE_H - ROW_GAP / 2,
      w: NODE_W,
      h: NODE_H,
    });
  return { nodes, height, hidden };
}

export function layoutStreamGraph(
  spec: ExperimentSpec,
  tasks: BoardTask[],
  streams: BoardStream[],
  width: number,
): GraphLayout {
  const ops = spec.stages.map((s) => s.op);
  if (ops.includes('sieve')) {
    const { nodes, height, hidden } = sieveLayout(spec, tasks, width);
    return { kind: 'sieve', nodes, streams: streamBoxes(streams, nodes, spec), height, hidden };
  }
  const ring = ops.includes('token');
  const nodes = ring ? ringLayout(tasks, width) : dagLayout(spec, tasks, width);
  const height = Math.max(...nodes.map((n) => n.y + n.h)) + ROW_GAP / 2;
  return {
    kind: ring ? 'ring' : 'dag',
    nodes,
    streams: streamBoxes(streams, nodes, spec),
    height,
    hidden: 0,
  };
}

/** The board's tasks before the run has started: one per stage copy, as the runtime numbers them. */
export function plannedTasks(spec: ExperimentSpec): BoardTask[] {
  const tasks: BoardTask[] = [];
  spec.stages.forEach((s, stage) => {
    for (let c = 0; c < s.threads; c++)
      tasks.push({
        id: tasks.length,
        stage,
        state: 'new',
        thread: null,
        parent: null,
        label: s.threads > 1 ? c : 0,
        phase: 0,
        input: null,
        output: null,
      });
  });
  return tasks;
}

/** The spec's streams before the run has started (nothing signalled yet). */
export function plannedStreams(spec: ExperimentSpec): BoardStream[] {
  const ring = spec.stages.some((s) => s.op === 'token') && spec.batching !== 'always';
  return (spec.streams ?? []).map((_, k) => ({
    id: k,
    specIndex: k,
    fromTask: null,
    toTask: null,
    signalled: 0,
    waited: 0,
    batched: !ring && (spec.batch ?? 1) > 1,
    cyclic: ring,
    batch: ring ? 1 : (spec.batch ?? 1),
  }));
}
