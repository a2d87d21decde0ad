// The phaser runtime's stream graph (contracts/spec.md, "The phaser runtime"): each stage is a task
// (a split stage: `threads` copies of one), each stream a bounded phaser that the stages in `from`
// signal and the stages in `to` wait on. This file reads the `streams` list, checks the graph as a
// whole (the rules below, in this order) and answers the questions the twin, the models and the
// views ask of a graph. The C++ runtime checks the graph too, with short messages
// (wasm/include/pipelab/pipeline/spec_graph.hpp): a graph it rejects would crash or hang it.
import { LIMITS } from './limits';
import {
  join,
  readArray,
  readEnum,
  readObject,
  readString,
  requireField,
  SpecError,
} from './specFields';

/** What a stage's task does to each element (one per phase of each stream it waits on). */
export const STAGE_OPS = [
  'random',
  'count',
  'pass',
  'avg',
  'abs',
  'split',
  'hop',
  'token',
  'sieve',
] as const;
export type StageOp = (typeof STAGE_OPS)[number];
/** How a stream combines the values its signallers put in one phase (the accumulator). */
export const REDUCES = ['any', 'sum', 'min', 'max'] as const;
export type Reduce = (typeof REDUCES)[number];

export interface StreamSpec {
  /** The stages that signal it (SIG), in the order written. */
  from: string[];
  /** The stages that wait on it (WAIT). */
  to: string[];
  reduce: Reduce;
}

/** What the graph rules read of a stage. */
export interface GraphStage {
  name: string;
  threads: number;
  op?: StageOp;
  parent?: string;
}

export const SOURCE_OPS: readonly StageOp[] = ['random', 'count'];
const STREAM_FIELDS = ['from', 'to', 'reduce'];

function readNames(value: unknown, path: string): string[] {
  const [min, max] = LIMITS.streamStages;
  return readArray(value, path, min, max, 'stages').map((n, j) =>
    readString(n, join(path, j), ...LIMITS.stageNameBytes),
  );
}

export function parseStreams(value: unknown): StreamSpec[] {
  return readArray(value, 'streams', ...LIMITS.streams, 'streams').map((raw, k) => {
    const path = join('streams', k);
    const obj = readObject(raw, path, STREAM_FIELDS);
    const from = readNames(requireField(obj, 'from', path), join(path, 'from'));
    const to = readNames(requireField(obj, 'to', path), join(path, 'to'));
    const reduce =
      obj.reduce === undefined ? 'any' : readEnum(obj.reduce, join(path, 'reduce'), REDUCES);
    return { from, to, reduce };
  });
}

/** Registration mode bits of stage i on stream k: 1 = SIG (in from), 2 = WAIT (in to). */
const SIG = 1;
const WAIT = 2;
const MODE_NAMES = ['no registration', 'SIG', 'WAIT', 'SIG_WAIT'];

export interface StreamGraph {
  /** Per stage: the streams it waits on, in stream order. */
  inputs: number[][];
  /** Per stage: the streams it signals. */
  outputs: number[][];
  /** Stages whose op is a source (random, count), in stage order. */
  sources: number[];
  /** The ring's token stage, or null. */
  token: number | null;
  /** The stage that signals no stream (graphs with a source), or null (rings). */
  sink: number | null;
  /** The sieve stage, or null. */
  sieve: number | null;
  /** mode[i][k]: stage i's registration bits on stream k. */
  mode: number[][];
}

export function streamGraph(stages: GraphStage[], streams: StreamSpec[]): StreamGraph {
  const index = new Map(stages.map((s, i) => [s.name, i]));
  const mode = stages.map(() => streams.map(() => 0));
  streams.forEach((st, k) => {
    for (const n of st.from) mode[index.get(n)!][k] |= SIG;
    for (const n of st.to) mode[index.get(n)!][k] |= WAIT;
  });
  const pick = (bit: number) => mode.map((row) => row.flatMap((m, k) => (m & bit ? [k] : [])));
  const outputs = pick(SIG);
  const ops = stages.map((s) => s.op);
  const find = (op: StageOp) => {
    const i = ops.indexOf(op);
    return i < 0 ? null : i;
  };
  const sources = ops.flatMap((op, i) => (op && SOURCE_OPS.includes(op) ? [i] : []));
  const sinks = outputs.flatMap((o, i) => (o.length === 0 ? [i] : []));
  return {
    inputs: pick(WAIT),
    outputs,
    sources,
    token: find('token'),
    sink: sources.length > 0 && sinks.length === 1 ? sinks[0] : null,
    sieve: find('sieve'),
    mode,
  };
}

const quote = (s: string) => JSON.stringify(s);

/** Stages reachable from `starts` along streams (from → to). */
function reachable(g: StreamGraph, streams: StreamSpec[], stages: GraphStage[], starts: number[]) {
  const index = new Map(stages.map((s, i) => [s.name, i]));
  const seen = stages.map(() => false);
  const todo = [...starts];
  for (const s of starts) seen[s] = true;
  while (todo.length > 0) {
    const i = todo.pop()!;
    for (const k of g.outputs[i]) {
      for (const n of streams[k].to) {
        const j = index.get(n)!;
        if (!seen[j]) {
          seen[j] = true;
          todo.push(j);
        }
      }
    }
  }
  return seen;
}

/** Whether stage i reaches itself through one or more streams. */
function onCycle(g: StreamGraph, streams: StreamSpec[], stages: GraphStage[], i: number): boolean {
  const next = g.outputs[i].flatMap((k) =>
    streams[k].to.map((n) => stages.findIndex((s) => s.name === n)),
  );
  return reachable(g, streams, stages, next)[i];
}

/**
 * The rules a phaser graph obeys, checked in this order (both sides): stage names are unique;
 * each stream's ends name stages, once each, and it has a signaller and a waiter (none of them
 * both); per stage, only split stages have copies, sources wait on nothing and signal something,
 * every other op waits on something, avg reads one stream, a sieve reads one and signals one;
 * something starts the graph (sources, or exactly one token — not both); a graph with a source
 * ends in exactly one sink, a ring is hop stages joined one to one; every stage is reachable from
 * a start; a graph with a source is acyclic; a sieve reads a count source and sends its primes to
 * the sink alone; a parent is another stage, parent chains end at the root, and a child registers
 * only with modes its parent has (the capability rule).
 */
export function checkGraph(stages: GraphStage[], streams: StreamSpec[]): void {
  const names = stages.map((s) => s.name);
  stages.forEach((s, i) => {
    if (names.indexOf(s.name) < i)
      throw new SpecError(
        join(join('stages', i), 'name'),
        `${quote(s.name)} is used twice (a phaser graph names stages by name)`,
      );
  });
  streams.forEach((st, k) => {
    const path = join('streams', k);
    for (const side of ['from', 'to'] as const) {
      st[side].forEach((n, j) => {
        if (!names.includes(n))
          throw new SpecError(
            join(join(path, side), j),
            `${quote(n)} is not a stage (stages: ${names.join(', ')})`,
          );
        if (st[side].indexOf(n) < j)
          throw new SpecError(join(join(path, side), j), `${quote(n)} is listed twice`);
      });
    }
    if (st.from.length === 0)
      throw new SpecError(
        join(path, 'from'),
        'no stage signals this stream, so a stage waiting on it would wait forever',
      );
    if (st.to.length === 0)
      throw new SpecError(
        join(path, 'to'),
        'no stage waits on this stream, so its signallers would stop at the bound forever',
      );
    for (const n of st.to)
      if (st.from.includes(n))
        throw new SpecError(
          join(path, 'to'),
          `${quote(n)} also signals this stream (a stage may not wait on a stream it signals)`,
        );
  });
  const g = streamGraph(stages, streams);
  stages.forEach((s, i) => {
    const path = join('stages', i);
    const op = s.op!;
    const ins = g.inputs[i].length;
    const outs = g.outputs[i].length;
    if (s.threads !== 1 && op !== 'split')
      throw new SpecError(
        join(path, 'threads'),
        `${s.threads} is out of range (allowed 1 for op ${op}: only split stages have copies)`,
      );
    if (SOURCE_OPS.includes(op)) {
      if (ins > 0)
        throw new SpecError(
          join(path, 'op'),
          `a ${op} source waits on no stream (streams[${g.inputs[i][0]}] lists ${quote(s.name)} in to)`,
        );
      if (outs === 0)
        throw new SpecError(
          join(path, 'op'),
          `a ${op} source needs a stream to signal (no stream lists ${quote(s.name)} in from)`,
        );
    } else if (ins === 0)
      throw new SpecError(
        join(path, 'op'),
        `${op} needs a stream to wait on (no stream lists ${quote(s.name)} in to)`,
      );
    if (op === 'avg' && ins !== 1)
      throw new SpecError(
        join(path, 'op'),
        `avg reads one stream (${ins} streams list ${quote(s.name)} in to)`,
      );
    if (op === 'sieve' && (ins !== 1 || outs !== 1))
      throw new SpecError(
        join(path, 'op'),
        `a sieve reads one stream and signals one (it reads ${ins}, signals ${outs})`,
      );
  });
  const sinks = g.outputs.flatMap((o, i) => (o.length === 0 ? [i] : []));
  const tokens = stages.flatMap((s, i) => (s.op === 'token' ? [i] : []));
  const opPath = (i: number) => join(join('stages', i), 'op');
  if (g.sources.length === 0 && tokens.length === 0)
    throw new SpecError(
      'stages',
      'no stage starts the graph (allowed: a random or count source, or one token stage on a ring)',
    );
  if (g.sources.length > 0 && tokens.length > 0)
    throw new SpecError(
      opPath(tokens[0]),
      `a token starts a ring, but this graph has a source (${quote(names[g.sources[0]])})`,
    );
  if (tokens.length > 1)
    throw new SpecError(
      opPath(tokens[1]),
      `a second token (a ring carries one: ${quote(names[tokens[0]])})`,
    );
  if (g.sources.length > 0) {
    if (sinks.length === 0)
      throw new SpecError(
        'streams',
        'no stage ends the graph (a graph with a source ends in one stage that signals no stream)',
      );
    if (sinks.length > 1)
      throw new SpecError(
        join(join('stages', sinks[1]), 'name'),
        `${quote(names[sinks[1]])} is a second sink (a graph with a source ends in one stage: ${quote(names[sinks[0]])})`,
      );
  } else {
    stages.forEach((s, i) => {
      if (s.op !== 'hop' && s.op !== 'token')
        throw new SpecError(
          opPath(i),
          `${s.op} does not pass a token on (a ring takes hop stages and one token)`,
        );
    });
    stages.forEach((_, i) => {
      const ins = g.inputs[i].length;
      const outs = g.outputs[i].length;
      if (ins !== 1 || outs !== 1)
        throw new SpecError(
          join('stages', i),
          `a ring stage waits on one stream and signals one (it waits on ${ins}, signals ${outs})`,
        );
    });
    streams.forEach((st, k) => {
      if (st.from.length !== 1 || st.to.length !== 1)
        throw new SpecError(
          join('streams', k),
          `a ring's stream joins one stage to the next (from ${st.from.length}, to ${st.to.length})`,
        );
    });
  }
  const starts = g.sources.length > 0 ? g.sources : tokens;
  const reached = reachable(g, streams, stages, starts);
  const lost = reached.indexOf(false);
  if (lost >= 0)
    throw new SpecError(
      join(join('stages', lost), 'name'),
      `${quote(names[lost])} is not reachable from ${g.sources.length > 0 ? 'a source' : 'the token'} (no chain of streams leads to it)`,
    );
  if (g.sources.length > 0) {
    const cyclic = stages.findIndex((_, i) => onCycle(g, streams, stages, i));
    if (cyclic >= 0)
      throw new SpecError(
        join(join('stages', cyclic), 'name'),
        `${quote(names[cyclic])} is on a cycle (a graph with a source must be acyclic; a ring of hop stages carries a token instead)`,
      );
  }
  if (g.sieve !== null) {
    const i = g.sieve;
    const input = streams[g.inputs[i][0]];
    const other = input.from.find((n) => stages[names.indexOf(n)].op !== 'count');
    if (other !== undefined)
      throw new SpecError(
        opPath(i),
        `a sieve reads the integers of a count source (streams[${g.inputs[i][0]}] comes from ${quote(other)})`,
      );
    const k = g.outputs[i][0];
    if (streams[k].from.length !== 1)
      throw new SpecError(
        join(join('streams', k), 'from'),
        `the sieve signals its primes alone (${streams[k].from.length} stages signal this stream)`,
      );
    if (streams[k].to.length !== 1 || names.indexOf(streams[k].to[0]) !== g.sink)
      throw new SpecError(
        join(join('streams', k), 'to'),
        "the sieve's primes go to the sink alone",
      );
    if (g.inputs[g.sink!].length !== 1)
      throw new SpecError(
        opPath(g.sink!),
        `the sink of a sieve waits on its primes alone (it waits on ${g.inputs[g.sink!].length} streams)`,
      );
  }
  stages.forEach((s, i) => {
    if (s.parent === undefined) return;
    const path = join(join('stages', i), 'parent');
    const j = names.indexOf(s.parent);
    if (j < 0)
      throw new SpecError(path, `${quote(s.parent)} is not a stage (stages: ${names.join(', ')})`);
    if (j === i)
      throw new SpecError(
        path,
        `${quote(s.parent)} is the stage itself (a stage is spawned by another, or by the root)`,
      );
    const seen = new Set<number>([i]);
    for (let p = j; stages[p].parent !== undefined;) {
      p = names.indexOf(stages[p].parent!);
      if (p < 0) break;
      if (seen.has(p))
        throw new SpecError(
          path,
          `the parents of ${quote(s.name)} form a cycle (a parent chain ends at the root)`,
        );
      seen.add(p);
    }
    streams.forEach((_, k) => {
      const child = g.mode[i][k];
      const parent = g.mode[j][k];
      if ((child & ~parent) !== 0)
        throw new SpecError(
          path,
          `${quote(s.name)} registers ${MODE_NAMES[child]} on streams[${k}], but its parent ${quote(s.parent!)} has ${MODE_NAMES[parent]} there (a child registers only with modes its parent has)`,
        );
    });
  });
}

/** A sieve graph takes at most LIMITS.sieveItems integers: one task per prime. */
export function checkSieveItems(items: number): void {
  const [min, max] = LIMITS.sieveItems;
  if (items > max)
    throw new SpecError(
      'items',
      `${items} is out of range (allowed ${min}..${max} with a sieve stage: one task per prime)`,
    );
}
