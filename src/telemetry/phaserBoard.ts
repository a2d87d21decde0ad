// The phaser board (contracts/telemetry.md): every task and stream of a phaser run as fixed
// records of 32-bit words, written by the C++ runtime in wasm memory (telemetry/phaser_board.hpp)
// or by the twin into an ArrayBuffer, and read by the page once a frame.
// Layout: a 64-byte header, then `taskCapacity` task records, then `streamCapacity` stream
// records, 8 words each. Ids in records are stored + 1 (0 = none).

export const BOARD_HEADER_WORDS = 16;
export const BOARD_RECORD_WORDS = 8;
export const BOARD_HEADER = {
  taskCount: 0,
  streamCount: 1,
  taskCapacity: 2,
  streamCapacity: 3,
  stalled: 4,
  cyclicStreams: 5,
} as const;
export const TASK_WORD = {
  stage: 0,
  state: 1,
  thread: 2,
  parent: 3,
  label: 4,
  phase: 5,
  input: 6,
  output: 7,
} as const;
export const STREAM_WORD = {
  specIndex: 0,
  fromTask: 1,
  toTask: 2,
  signalled: 3,
  waited: 4,
  flags: 5,
  batch: 6,
} as const;
export const BATCHED_FLAG = 1;
export const CYCLIC_FLAG = 2;
/** What a task last did (telemetry/phaser_board.hpp BoardTaskState). */
export const TASK_STATES = [
  'new',
  'running',
  'waiting-input',
  'waiting-bound',
  'yielded',
  'done',
] as const;
export type TaskState = (typeof TASK_STATES)[number];
const NONE = 0xffffffff;

export interface BoardTask {
  id: number;
  stage: number;
  state: TaskState;
  /** The pool thread running it now, or that ran it last; null before it first ran. */
  thread: number | null;
  parent: number | null;
  /** A split copy's index, or the prime a sieve task filters by (0: not found yet). */
  label: number;
  /** Elements it has served. */
  phase: number;
  input: number | null;
  output: number | null;
}

export interface BoardStream {
  id: number;
  /** The spec's streams[i], or null for a stream the sieve created. */
  specIndex: number | null;
  fromTask: number | null;
  toTask: number | null;
  signalled: number;
  waited: number;
  batched: boolean;
  cyclic: boolean;
  /** Elements per phase now. */
  batch: number;
}

export interface BoardFrame {
  tasks: BoardTask[];
  streams: BoardStream[];
  stalled: boolean;
  cyclicStreams: number;
}

export function boardBytes(taskCapacity: number, streamCapacity: number): number {
  return (BOARD_HEADER_WORDS + (taskCapacity + streamCapacity) * BOARD_RECORD_WORDS) * 4;
}

const isShared = (b: ArrayBufferLike): boolean =>
  typeof SharedArrayBuffer !== 'undefined' && b instanceof SharedArrayBuffer;
const id = (v: number) => (v === 0 ? null : v - 1);

/** Reads the board at `byteOffset` (4-byte aligned) of wasm memory or the twin's buffer. */
export function readBoard(buffer: ArrayBufferLike, byteOffset: number): BoardFrame {
  const shared = isShared(buffer);
  const head = new Uint32Array(buffer, byteOffset, BOARD_HEADER_WORDS);
  const load = (a: Uint32Array, i: number) => (shared ? Atomics.load(a, i) : a[i]) >>> 0;
  const taskCount = load(head, BOARD_HEADER.taskCount);
  const streamCount = load(head, BOARD_HEADER.streamCount);
  const taskCapacity = load(head, BOARD_HEADER.taskCapacity);
  const words = new Uint32Array(
    buffer,
    byteOffset + BOARD_HEADER_WORDS * 4,
    (taskCapacity + load(head, BOARD_HEADER.streamCapacity)) * BOARD_RECORD_WORDS,
  );
  const tasks: BoardTask[] = [];
  for (let t = 0; t < taskCount; t++) {
    const at = (w: number) => load(words, t * BOARD_RECORD_WORDS + w);
    const thread = at(TASK_WORD.thread);
    tasks.push({
      id: t,
      stage: at(TASK_WORD.stage),
      state: TASK_STATES[at(TASK_WORD.state)] ?? 'new',
      thread: thread === NONE ? null : thread,
      parent: id(at(TASK_WORD.parent)),
      label: at(TASK_WORD.label),
      phase: at(TASK_WORD.phase),
      input: id(at(TASK_WORD.input)),
      output: id(at(TASK_WORD.output)),
    });
  }
  const streams: BoardStream[] = [];
  for (let s = 0; s < streamCount; s++) {
    const at = (w: number) => load(words, (taskCapacity + s) * BOARD_RECORD_WORDS + w);
    const spec = at(STREAM_WORD.specIndex);
    const flags = at(STREAM_WORD.flags);
    streams.push({
      id: s,
      specIndex: spec === NONE ? null : spec,
      fromTask: id(at(STREAM_WORD.fromTask)),
      toTask: id(at(STREAM_WORD.toTask)),
      signalled: at(STREAM_WORD.signalled),
      waited: at(STREAM_WORD.waited),
      batched: (flags & BATCHED_FLAG) !== 0,
      cyclic: (flags & CYCLIC_FLAG) !== 0,
      batch: at(STREAM_WORD.batch),
    });
  }
  return {
    tasks,
    streams,
    stalled: load(head, BOARD_HEADER.stalled) !== 0,
    cyclicStreams: load(head, BOARD_HEADER.cyclicStreams),
  };
}

/** The twin's side: writes the board in the exact C++ layout (adds are serial in the twin). */
export class BoardWriter {
  private readonly head: Uint32Array;
  private readonly words: Uint32Array;

  constructor(
    readonly buffer: ArrayBufferLike,
    readonly byteOffset: number,
    readonly taskCapacity: number,
    readonly streamCapacity: number,
  ) {
    this.head = new Uint32Array(buffer, byteOffset, BOARD_HEADER_WORDS);
    this.words = new Uint32Array(
      buffer,
      byteOffset + BOARD_HEADER_WORDS * 4,
      (taskCapacity + streamCapacity) * BOARD_RECORD_WORDS,
    );
    this.head.fill(0);
    this.words.fill(0);
    this.head[BOARD_HEADER.taskCapacity] = taskCapacity;
    this.head[BOARD_HEADER.streamCapacity] = streamCapacity;
  }

  addTask(
    stage: number,
    parent: number | null,
    label: number,
    input: number | null,
    output: number | null,
  ): number {
    const t = this.head[BOARD_HEADER.taskCount];
    if (t >= this.taskCapacity) return NONE;
    const at = t * BOARD_RECORD_WORDS;
    this.words[at + TASK_WORD.stage] = stage;
    this.words[at + TASK_WORD.parent] = parent === null ? 0 : parent + 1;
    this.words[at + TASK_WORD.label] = label;
    this.words[at + TASK_WORD.input] = input === null ? 0 : input + 1;
    this.words[at + TASK_WORD.output] = output === null ? 0 : output + 1;
    this.words[at + TASK_WORD.thread] = NONE;
    this.head[BOARD_HEADER.taskCount] = t + 1;
    return t;
  }

  addStream(
    specIndex: number | null,
    fromTask: number | null,
    toTask: number | null,
    flags: number,
    batch: number,
  ): number {
    const s = this.head[BOARD_HEADER.streamCount];
    if (s >= this.streamCapacity) return NONE;
    const at = (this.taskCapacity + s) * BOARD_RECORD_WORDS;
    this.words[at + STREAM_WORD.specIndex] = specIndex === null ? NONE : specIndex;
    this.words[at + STREAM_WORD.fromTask] = fromTask === null ? 0 : fromTask + 1;
    this.words[at + STREAM_WORD.toTask] = toTask === null ? 0 : toTask + 1;
    this.words[at + STREAM_WORD.flags] = flags;
    this.words[at + STREAM_WORD.batch] = batch;
    this.head[BOARD_HEADER.streamCount] = s + 1;
    return s;
  }

  setTask(task: number, word: keyof typeof TASK_WORD, value: number): void {
    if (task < this.taskCapacity) this.words[task * BOARD_RECORD_WORDS + TASK_WORD[word]] = value;
  }
  setState(task: number, state: TaskState, thread: number): void {
    this.setTask(task, 'thread', thread);
    this.setTask(task, 'state', TASK_STATES.indexOf(state));
  }
  setStream(stream: number, word: keyof typeof STREAM_WORD, value: number): void {
    if (stream < this.streamCapacity)
      this.words[(this.taskCapacity + stream) * BOARD_RECORD_WORDS + STREAM_WORD[word]] = value;
  }
  markStalled(): void {
    this.head[BOARD_HEADER.stalled] = 1;
  }
  /** Replaces the whole board with `frame` (a replay writes the recorded board at its clock);
   * records past the capacities are left out, as addTask and addStream leave them out. */
  writeFrame(frame: BoardFrame): void {
    this.words.fill(0);
    this.head[BOARD_HEADER.taskCount] = 0;
    this.head[BOARD_HEADER.streamCount] = 0;
    for (const t of frame.tasks) {
      const id = this.addTask(t.stage, t.parent, t.label, t.input, t.output);
      if (id === NONE) break;
      this.setTask(id, 'phase', t.phase);
      this.setState(id, t.state, t.thread ?? NONE);
    }
    for (const s of frame.streams) {
      const flags = (s.batched ? BATCHED_FLAG : 0) | (s.cyclic ? CYCLIC_FLAG : 0);
      const id = this.addStream(s.specIndex, s.fromTask, s.toTask, flags, s.batch);
      if (id === NONE) break;
      this.setStream(id, 'signalled', s.signalled);
      this.setStream(id, 'waited', s.waited);
    }
    this.head[BOARD_HEADER.stalled] = frame.stalled ? 1 : 0;
    this.head[BOARD_HEADER.cyclicStreams] = frame.cyclicStreams;
  }
  setCyclicStreams(n: number): void {
    this.head[BOARD_HEADER.cyclicStreams] = n;
  }
}
