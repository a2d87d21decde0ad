// Where the stream-graph view puts each task and stream (pure, no DOM): a graph with a source in
// columns by depth (a stage's longest chain of streams from a source; copies and branches stacked),
// a ring on a circle, and the sieve as its growing chain of filter tasks wrapping in rows between
// the numbers and the primes. Positions are px in a drawing `width` wide. The sieve's links run
// between its rows, never across a box, and a chain too long to draw shows a dashed box where its
// middle is left out.
import type { ExperimentSpec } from '../spec/experimentSpec';
import { DEFAULTS } from '../spec/limits';
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
export interface Point {
  x: number;
  y: number;
}
/** A stream drawn as a small buffer between its producers and consumers. */
export interface StreamBox {
  stream: BoardStream;
  /** Centre of its buffer, px. */
  x: number;
  y: number;
  from: NodeBox[];
  to: NodeBox[];
  /** A link of the sieve's chain: drawn as this line from producer to consumer, no buffer. */
  route?: Point[];
}
/** The sieve's left-out middle: a dashed box in the chain's place, linked to its neighbours. */
export interface ChainGap {
  x: number;
  y: number;
  w: number;
  h: number;
  /** How many filter tasks it stands for. */
  hidden: number;
  links: Point[][];
}
export interface GraphLayout {
  kind: 'dag' | 'ring' | 'sieve';
  nodes: NodeBox[];
  streams: StreamBox[];
  height: number;
  /** Sieve tasks left out to fit (the middle of a long chain), or 0. */
  hidden: number;
  /** Where they are left out (null when none are). */
  gap: ChainGap | null;
  /** Slots each stream's buffer draws: the bound's, up to MAX_SLOTS, fewer on a ring too big
   * for the drawing (its buffers would overlap). */
  slots: number;
  /** Room for a buffer's label after its slots, px (bufferLabelPx). */
  labelPx: number;
}

/** "2000 served · T1" in 12 px type is 106 px in Chromium on Debian: it spilled out of 104. */
const NODE_W = 118;
const NODE_H = 44;
const ROW_GAP = 22;
const SIEVE_H = 38;
const SIEVE_GAP = 14;
/** A stream's buffer: up to MAX_SLOTS slots of SLOT_PX, its "full/bound" label after them. */
export const SLOT_PX = 9;
const MAX_SLOTS = 16;
/** Room kept at least for the buffer's label ("16/16"), px. */
const BUFFER_LABEL_PX = 48;
/** A character of a buffer's label (12 px type): "16/16 ×64" is 63.7 px and "64/64 ×4096" 79 px
 * in Chromium on Debian. */
const LABEL_CHAR_PX = 7.2;

/** A batched stream's note on its buffer: "×64". */
export const batchNote = (batch: number) => `×${batch}`;
/** A buffer's label as the view writes it: "full/bound", then its note, if any. */
export const bufferLabel = (full: number, bound: number, note: string) =>
  note ? `${full}/${bound} ${note}` : `${full}/${bound}`;

/** Room for the widest label a buffer of `bound` can show, its batch note included when batched
 * (lesson 6 takes batches up to 4096), px. */
export function bufferLabelPx(bound: number, batch: number): number {
  const text = bufferLabel(bound, bound, batch > 1 ? batchNote(batch) : '');
  return Math.max(BUFFER_LABEL_PX, 4 + Math.ceil(text.length * LABEL_CHAR_PX));
}
const slotsFor = (bound: number) => Math.min(bound, MAX_SLOTS);
/** A ring's buffer label: "64/64" at most (a cycle's note is said once, under the ring). */
export const RING_LABEL_PX = 34;
/** How far below (above) a box the centre of a buffer placed under (over) it sits, px: under the
 * numbers (44 px high) that is in the gap between the chain's first two rows (filters are 38). */
const BUFFER_OFFSET = 10;
/** Width of a character of a task's name (13 px, semi-bold): filter(1999) is 84 px in Chromium on Debian. */
const NAME_CHAR_PX = 7.2;
/** The sieve's chain shows its first filters and its newest ones, at most this many in all, and
 * a dashed box for the rest. A chain one longer is drawn whole: a box standing for one filter in
 * its place would save no room. */
export const MAX_SIEVE_NODES = 48;

/** Where a stream's buffer of `slots` centred at `x` starts: kept inside a drawing `width` wide,
 * its label (`labelPx`) included (a buffer over the primes sits at the right edge). */
export function bufferLeft(x: number, slots: number, width: number, labelPx: number): number {
  const w = slots * SLOT_PX;
  return Math.max(0, Math.min(x - w / 2, width - w - labelPx));
}

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

/** A ring: its buffers sit half-way between neighbours, r·sin(2π/n) apart, and each needs its
 * slots and its "full/bound" label. The radius grows for them up to what the width allows; past
 * that, the buffers draw fewer slots. */
function ringLayout(tasks: BoardTask[], bound: number, width: number) {
  const n = tasks.length;
  const spread = n >= 3 ? Math.sin((2 * Math.PI) / n) : 1;
  const around = (slots: number) => slots * SLOT_PX + 4 + RING_LABEL_PX + 8;
  const r = Math.min(width / 2 - NODE_W, Math.max(40 + n * 18, around(slotsFor(bound)) / spread));
  const fit = Math.floor((r * spread - around(0)) / SLOT_PX);
  const slots = Math.max(1, Math.min(slotsFor(bound), fit));
  const cx = width / 2;
  const cy = r + NODE_H;
  const nodes = tasks.map((task, i) => {
    const a = -Math.PI / 2 + (2 * Math.PI * i) / n;
    return {
      task,
      x: cx + r * Math.cos(a) - NODE_W / 2,
      y: cy + r * Math.sin(a) - NODE_H / 2,
      w: NODE_W,
      h: NODE_H,
    };
  });
  return { nodes, slots };
}

/** A filter's box: wide enough for its name with the largest prime the run can find
 * (filter(1999) for the numbers up to 2000). */
function sieveBoxWidth(spec: ExperimentSpec, sieveStage: number): number {
  const digits = String(spec.items + 1).length;
  const chars = spec.stages[sieveStage].name.length + 2 + digits;
  return Math.max(64, Math.ceil(chars * NAME_CHAR_PX) + 8);
}

function sieveLayout(
  spec: ExperimentSpec,
  tasks: BoardTask[],
  width: number,
  slots: number,
  labelPx: number,
) {
  const sieveStage = spec.stages.findIndex((s) => s.op === 'sieve');
  const boxW = sieveBoxWidth(spec, sieveStage);
  const chain = tasks.filter((t) => t.stage === sieveStage);
  const ends = tasks.filter((t) => t.stage !== sieveStage);
  const hidden = chain.length > MAX_SIEVE_NODES + 1 ? chain.length - MAX_SIEVE_NODES : 0;
  const head = Math.floor(MAX_SIEVE_NODES * 0.75);
  // The left-out middle takes one place in the chain (null), where its dashed box goes.
  const shown: Array<BoardTask | null> =
    hidden > 0
      ? [...chain.slice(0, head), null, ...chain.slice(chain.length - (MAX_SIEVE_NODES - head))]
      : chain;
  // The rows keep clear of the numbers' buffer, which hangs under the numbers into the gap between
  // the first two rows, label included (16 slots and "64/64 ×4096" reach 228 px): a wrap's line
  // comes down that gap's left edge. The primes' buffer, over the primes at the right, is as
  // wide, so the same margin on the right clears it too.
  const endReach = bufferLeft(NODE_W / 2, slots, width, labelPx) + slots * SLOT_PX + labelPx;
  const left = Math.max(NODE_W + 24, endReach + SIEVE_GAP / 2 + 6);
  const perRow = Math.max(1, Math.floor((width - 2 * left + SIEVE_GAP) / (boxW + SIEVE_GAP)));
  const rows = Math.max(1, Math.ceil(shown.length / perRow));
  const place = (i: number) => ({
    x: left + (i % perRow) * (boxW + SIEVE_GAP),
    y: ROW_GAP / 2 + Math.floor(i / perRow) * (SIEVE_H + ROW_GAP),
    w: boxW,
    h: SIEVE_H,
  });
  const nodes: NodeBox[] = shown.flatMap((task, i) => (task ? [{ task, ...place(i) }] : []));
  const at = shown.indexOf(null);
  const gap: ChainGap | null =
    at < 0
      ? null
      : {
          ...place(at),
          hidden,
          links: [chainRoute(place(at - 1), place(at)), chainRoute(place(at), place(at + 1))],
        };
  // Room under the numbers and over the primes for their streams' buffers (see atSieveEnd).
  const height = Math.max(NODE_H + ROW_GAP + 2 * BUFFER_OFFSET, rows * (SIEVE_H + ROW_GAP));
  const sourceTask = ends.find((t) => spec.stages[t.stage].op === 'count');
  const sinkTask = ends.find((t) => t !== sourceTask);
  const source = sourceTask && { task: sourceTask, x: 0, y: ROW_GAP / 2, w: NODE_W, h: NODE_H };
  const sink = sinkTask && {
    task: sinkTask,
    x: width - NODE_W,
    y: height - NODE_H - ROW_GAP / 2,
    w: NODE_W,
    h: NODE_H,
  };
  if (source) nodes.unshift(source);
  if (sink) nodes.push(sink);
  return { nodes, height, hidden, gap, source, sink };
}

type Box = Pick<NodeBox, 'x' | 'y' | 'w' | 'h'>;

/** The line from one place of the sieve's chain to the next: straight along a row; from a row's
 * end, out to the right, back along the middle of the gap under the row and in from the left of
 * the next one (a straight line across crossed the boxes of both rows). */
export function chainRoute(a: Box, b: Box): Point[] {
  const from = { x: a.x + a.w, y: a.y + a.h / 2 };
  const to = { x: b.x, y: b.y + b.h / 2 };
  if (a.y === b.y) return [from, to];
  const between = a.y + a.h + ROW_GAP / 2;
  const out = from.x + SIEVE_GAP / 2;
  const back = to.x - SIEVE_GAP / 2;
  return [
    from,
    { x: out, y: from.y },
    { x: out, y: between },
    { x: back, y: between },
    { x: back, y: to.y },
    to,
  ];
}

/** The buffers of the sieve's two streams go under the numbers and over the primes, in the
 * columns the chain leaves free: half-way to the chain they covered both boxes (the gap is 24 px,
 * a buffer of 8 phases 72). Other streams keep their place. */
function atSieveEnd(b: StreamBox, source?: NodeBox, sink?: NodeBox): StreamBox {
  if (source && b.from.includes(source))
    return { ...b, x: source.x + source.w / 2, y: source.y + source.h + BUFFER_OFFSET };
  if (sink && b.to.includes(sink))
    return { ...b, x: sink.x + sink.w / 2, y: sink.y - BUFFER_OFFSET };
  return b;
}

export function layoutStreamGraph(
  spec: ExperimentSpec,
  tasks: BoardTask[],
  streams: BoardStream[],
  width: number,
): GraphLayout {
  const ops = spec.stages.map((s) => s.op);
  const bound = spec.bound ?? DEFAULTS.bound;
  const labelPx = bufferLabelPx(bound, spec.batch ?? 1);
  if (ops.includes('sieve')) {
    const slots = slotsFor(bound);
    const { nodes, height, hidden, gap, source, sink } = sieveLayout(
      spec,
      tasks,
      width,
      slots,
      labelPx,
    );
    const ends = [source, sink];
    const boxes = streamBoxes(streams, nodes, spec).map((b) => {
      const link =
        b.from.length === 1 &&
        b.to.length === 1 &&
        !ends.includes(b.from[0]) &&
        !ends.includes(b.to[0]);
      return link ? { ...b, route: chainRoute(b.from[0], b.to[0]) } : atSieveEnd(b, source, sink);
    });
    return { kind: 'sieve', nodes, streams: boxes, height, hidden, gap, slots, labelPx };
  }
  const ring = ops.includes('token');
  const { nodes, slots } = ring
    ? ringLayout(tasks, bound, width)
    : { nodes: dagLayout(spec, tasks, width), slots: slotsFor(bound) };
  const height = Math.max(...nodes.map((n) => n.y + n.h)) + ROW_GAP / 2;
  return {
    kind: ring ? 'ring' : 'dag',
    nodes,
    streams: streamBoxes(streams, nodes, spec),
    height,
    hidden: 0,
    gap: null,
    slots,
    labelPx,
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
