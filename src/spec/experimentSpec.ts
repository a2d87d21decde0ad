// The ExperimentSpec type and its validator (contracts/spec.md): untrusted JSON in, a complete
// spec out (defaults applied), or a SpecError naming the first bad field. Every message a person
// reads about a spec comes from here; the C++ side checks only what its runtimes need.
import type { BarrierKind, Schedule } from './barrierFields';
import { DEFAULTS, LIMITS } from './limits';
import {
  checkGraph,
  checkSieveItems,
  parseStreams,
  STAGE_OPS,
  type StageOp,
  type StreamSpec,
} from './phaserGraph';
import {
  RUNTIME_KINDS,
  RUNTIMES,
  TOP_FIELDS,
  type Runtime,
  type RuntimeKindRules,
} from './runtimeKinds';
import {
  join,
  notTaken,
  readArray,
  readEnum,
  readInteger,
  readNumber,
  readObject,
  readString,
  readTaken,
  requireField,
  SpecError,
} from './specFields';

export { SpecError } from './specFields';
export type { Reduce, StageOp, StreamSpec } from './phaserGraph';
export { RUNTIMES, type Runtime } from './runtimeKinds';
export { TWO_STAGE_VARIANTS, type TwoStageVariant } from './twoStageRules';
import type { TwoStageVariant } from './twoStageRules';
export {
  BARRIER_KINDS,
  SCHEDULES,
  threadReduction,
  type BarrierKind,
  type Schedule,
} from './barrierFields';

export const STAGE_MODES = ['serial-in-order', 'serial-out-of-order', 'parallel'] as const;
export const BATCHINGS = ['adaptive', 'always'] as const;
export type Batching = (typeof BATCHINGS)[number];
export const QUEUE_KINDS = ['batch', 'lamport', 'cached-spsc', 'mutex', 'vyukov-mpmc'] as const;
export const KERNEL_NAMES = [
  'matrix',
  'dedup-hash',
  'dedup-compress',
  'ferret-features',
  'ferret-rank',
  'black-scholes',
  'format-prices',
] as const;

export type StageMode = (typeof STAGE_MODES)[number];
export type QueueKind = (typeof QUEUE_KINDS)[number];
export type KernelName = (typeof KERNEL_NAMES)[number];

export type ServiceSpec =
  | { kind: 'fixed'; us: number }
  | { kind: 'exponential'; meanUs: number }
  | { kind: 'uniform'; minUs: number; maxUs: number }
  | { kind: 'bimodal'; fastUs: number; slowUs: number; slowFraction: number }
  | { kind: 'kernel'; name: KernelName; size: number };

export interface StageSpec {
  name: string;
  mode: StageMode;
  /** Threads serving this stage (static/collapsed); ignored by work-stealing; copies of a split
   * stage's task (phaser). */
  threads: number;
  service: ServiceSpec;
  /** Items out per item served (dedup's FindAllAnchors); present only when not 1. */
  emits?: number;
  /** Fraction of the items that skip this stage (dedup's Compress); present only when not 0. */
  bypass?: number;
  /** Phaser only: what the stage's task does to each element (src/spec/phaserGraph.ts). */
  op?: StageOp;
  /** Phaser only: the stage whose task spawns this one (absent: the root spawns it). */
  parent?: string;
}

export interface QueueSpec {
  kind: QueueKind;
  /** Items the queue holds; null = unbounded (the paper's open model). */
  capacity: number | null;
}

export interface ExperimentSpec {
  runtime: Runtime;
  stages: StageSpec[];
  threads: number;
  tokens: number;
  queue: QueueSpec;
  /** Two-stage runtimes only: who does the work — a serial stage plus parallel threads
   * (two-stage), one thread per stage (dual-thread), or one thread for both (serial). */
  variant?: TwoStageVariant;
  /** Two-stage runtimes only: items per batch (output) or records per span (input). */
  batchItems?: number;
  /** Two-stage output only: the buffer pool (default: formatting threads + 2). */
  buffers?: number;
  /** Barrier runtime only, always present there (src/spec/barrierFields.ts). For it, `items` are
   * intervals and the one stage's fixed service is the work of one interval, all threads together. */
  barrier?: BarrierKind;
  schedule?: Schedule;
  quantumUs?: number;
  /** Phaser only (always present there): the stream graph, phases per stream buffer, elements
   * per phase when batched (1 = every element its own phase). */
  streams?: StreamSpec[];
  bound?: number;
  batch?: number;
  /** Phaser only: "adaptive" turns batching off on streams that lie on a cycle (cycle detection);
   * "always" keeps them batched, which deadlocks a ring (reported as a stall). */
  batching?: Batching;
  items: number;
  seed: number;
  cores?: number;
}

const STAGE_FIELDS = ['name', 'mode', 'threads', 'service', 'emits', 'bypass'];
const PHASER_STAGE_FIELDS = [...STAGE_FIELDS, 'op', 'parent'];
/** Each service kind's fields, in the order messages list them. */
const SERVICE_FIELDS: Record<ServiceSpec['kind'], readonly string[]> = {
  fixed: ['kind', 'us'],
  exponential: ['kind', 'meanUs'],
  uniform: ['kind', 'minUs', 'maxUs'],
  bimodal: ['kind', 'fastUs', 'slowUs', 'slowFraction'],
  kernel: ['kind', 'name', 'size'],
};
const SERVICE_KINDS = Object.keys(SERVICE_FIELDS) as ServiceSpec['kind'][];
const ALL_SERVICE_FIELDS = [...new Set(Object.values(SERVICE_FIELDS).flat())];

/** Unknown fields (in no kind) first, so a typo of `kind` is named as such; then the kind's. */
function parseService(value: unknown, path: string): ServiceSpec {
  const obj = readObject(value, path, ALL_SERVICE_FIELDS);
  const kind = readEnum(requireField(obj, 'kind', path), join(path, 'kind'), SERVICE_KINDS);
  readTaken(obj, path, SERVICE_FIELDS[kind], `the ${kind} service`);
  const time = (key: string) =>
    readNumber(requireField(obj, key, path), join(path, key), ...LIMITS.serviceUs);
  switch (kind) {
    case 'fixed':
      return { kind, us: time('us') };
    case 'exponential':
      return { kind, meanUs: time('meanUs') };
    case 'uniform': {
      const minUs = time('minUs');
      const maxUs = time('maxUs');
      if (minUs > maxUs) {
        throw new SpecError(
          join(path, 'minUs'),
          `${minUs} is above maxUs ${maxUs} (allowed minUs <= maxUs)`,
        );
      }
      return { kind, minUs, maxUs };
    }
    case 'bimodal': {
      const fastUs = time('fastUs');
      const slowUs = time('slowUs');
      const slowFraction = readNumber(
        requireField(obj, 'slowFraction', path),
        join(path, 'slowFraction'),
        ...LIMITS.slowFraction,
      );
      return { kind, fastUs, slowUs, slowFraction };
    }
    case 'kernel': {
      const name = readEnum(requireField(obj, 'name', path), join(path, 'name'), KERNEL_NAMES);
      const size = readInteger(
        requireField(obj, 'size', path),
        join(path, 'size'),
        ...LIMITS.kernelSize,
      );
      return { kind, name, size };
    }
  }
}

/** Stages that emit several items or that items bypass: only the static and collapsed runtimes
 * (and their twin) implement them; every other kind takes emits 1 and bypass 0. */
const takesStageFlow = (runtime: Runtime) => runtime === 'static' || runtime === 'collapsed';

/** Serial stages need 1 thread under every runtime, although work-stealing ignores the count.
 * `outPerItem` is how many items one input item has become before this stage (the emits of the
 * stages before it), so the items out stay within the items limit. Phaser stages also take `op`
 * (required) and `parent`; other runtimes know neither. */
function parseStage(
  value: unknown,
  path: string,
  runtime: Runtime,
  index: number,
  outPerItem: number,
): StageSpec {
  const phaser = runtime === 'phaser';
  const obj = readObject(value, path, phaser ? PHASER_STAGE_FIELDS : STAGE_FIELDS);
  const name = readString(
    requireField(obj, 'name', path),
    join(path, 'name'),
    ...LIMITS.stageNameBytes,
  );
  const mode = readEnum(requireField(obj, 'mode', path), join(path, 'mode'), STAGE_MODES);
  const threads =
    obj.threads === undefined
      ? DEFAULTS.stageThreads
      : readInteger(obj.threads, join(path, 'threads'), ...LIMITS.stageThreads);
  if (mode !== 'parallel' && threads !== 1) {
    throw new SpecError(
      join(path, 'threads'),
      `${threads} is out of range (allowed 1 for a ${mode} stage)`,
    );
  }
  const service = parseService(requireField(obj, 'service', path), join(path, 'service'));
  const stage: StageSpec = { name, mode, threads, service };
  const emits =
    obj.emits === undefined ? 1 : readInteger(obj.emits, join(path, 'emits'), ...LIMITS.stageEmits);
  const emitsRule = (allowed: string) =>
    new SpecError(join(path, 'emits'), `${emits} is out of range (allowed ${allowed})`);
  if (emits !== 1 && !takesStageFlow(runtime)) throw emitsRule(`1 for the ${runtime} runtime`);
  const most = Math.min(LIMITS.stageEmits[1], Math.floor(LIMITS.items[1] / outPerItem));
  if (emits > most)
    throw emitsRule(`1..${most} after the ${outPerItem} items per item of the stages before`);
  if (emits !== 1) stage.emits = emits;
  const bypass =
    obj.bypass === undefined
      ? 0
      : readNumber(obj.bypass, join(path, 'bypass'), ...LIMITS.stageBypass);
  if (bypass !== 0) {
    const rule = !takesStageFlow(runtime)
      ? `the ${runtime} runtime`
      : mode !== 'parallel'
        ? `a ${mode} stage`
        : index === 0
          ? 'the first stage'
          : emits !== 1
            ? `a stage that emits ${emits} items`
            : null;
    if (rule)
      throw new SpecError(
        join(path, 'bypass'),
        `${bypass} is out of range (allowed 0 for ${rule})`,
      );
    stage.bypass = bypass;
  }
  if (!phaser) return stage;
  stage.op = readEnum(requireField(obj, 'op', path), join(path, 'op'), STAGE_OPS);
  if (obj.parent !== undefined)
    stage.parent = readString(obj.parent, join(path, 'parent'), ...LIMITS.stageNameBytes);
  return stage;
}

/** An absent queue takes the default; a present one needs both fields, so a half-written queue
 * is an error rather than a silent default. Null capacity = unbounded. */
const defaultQueue = (): QueueSpec => ({ kind: 'batch', capacity: DEFAULTS.queueCapacity });

function parseQueue(value: unknown): QueueSpec {
  if (value === undefined) return defaultQueue();
  const obj = readObject(value, 'queue', ['kind', 'capacity']);
  const kind = readEnum(requireField(obj, 'kind', 'queue'), 'queue.kind', QUEUE_KINDS);
  const raw = requireField(obj, 'capacity', 'queue', '; null = unbounded');
  const capacity =
    raw === null ? null : readInteger(raw, 'queue.capacity', ...LIMITS.queueCapacity);
  return { kind, capacity };
}

/** Validates untrusted JSON (lesson front matter, URL state) into a complete ExperimentSpec. */
export function parseExperimentSpec(json: unknown): ExperimentSpec {
  const obj = readObject(json, '', TOP_FIELDS);
  const runtime = readEnum(requireField(obj, 'runtime', ''), 'runtime', RUNTIMES);
  const kind: RuntimeKindRules = RUNTIME_KINDS[runtime];
  const phaser = runtime === 'phaser';
  readTaken(obj, '', kind.fields, `the ${runtime} runtime`, kind.carries);
  const rawStages = readArray(
    requireField(obj, 'stages', ''),
    'stages',
    ...LIMITS.stages,
    'stages',
  );
  let outPerItem = 1;
  const stages = rawStages.map((raw, i) => {
    const stage = parseStage(raw, join('stages', i), runtime, i, outPerItem);
    outPerItem *= stage.emits ?? 1;
    return stage;
  });
  kind.checkStages?.(stages);
  const stageThreads = stages.map((s) => s.threads);
  const threads = kind.threads(obj, stageThreads);
  const tokens = kind.tokens(obj, threads, runtime);
  const queue = parseQueue(obj.queue);
  // A carried queue is accepted only as the normalised spec writes it (the default).
  if (obj.queue !== undefined && kind.carries.includes('queue')) {
    const d = defaultQueue();
    if (queue.kind !== d.kind || queue.capacity !== d.capacity)
      throw notTaken('queue', kind.fields, `the ${runtime} runtime`);
  }
  const own = kind.ownFields?.(obj, stageThreads, { stages, threads }) ?? {};
  const graph = phaser ? readPhaserGraph(obj, stages) : {};
  const items = readInteger(requireField(obj, 'items', ''), 'items', ...LIMITS.items);
  const mostItems = Math.floor(LIMITS.items[1] / outPerItem);
  if (items > mostItems)
    throw new SpecError(
      'items',
      `${items} is out of range (allowed ${LIMITS.items[0]}..${mostItems} with ${outPerItem} items out per item in)`,
    );
  if (phaser && stages.some((s) => s.op === 'sieve')) checkSieveItems(items);
  const seed = readInteger(requireField(obj, 'seed', ''), 'seed', ...LIMITS.seed);
  // Keys in the normalised order (contracts/spec.md): each kind's own fields sit after queue.
  const spec: ExperimentSpec = {
    runtime,
    stages,
    threads,
    tokens,
    queue,
    ...own,
    ...graph,
    items,
    seed,
  };
  if (obj.cores !== undefined) spec.cores = readInteger(obj.cores, 'cores', ...LIMITS.cores);
  return spec;
}

/** The phaser runtime's fields, after its carried queue: the streams and the graph rules, then
 * bound, batch and batching. */
function readPhaserGraph(
  obj: Record<string, unknown>,
  stages: StageSpec[],
): Pick<ExperimentSpec, 'streams' | 'bound' | 'batch' | 'batching'> {
  const streams = parseStreams(requireField(obj, 'streams', ''));
  checkGraph(stages, streams);
  const bound =
    obj.bound === undefined ? DEFAULTS.bound : readInteger(obj.bound, 'bound', ...LIMITS.bound);
  const batch =
    obj.batch === undefined ? DEFAULTS.batch : readInteger(obj.batch, 'batch', ...LIMITS.batch);
  const batching =
    obj.batching === undefined ? 'adaptive' : readEnum(obj.batching, 'batching', BATCHINGS);
  return { streams, bound, batch, batching };
}

/** Items out of the last stage per item in: the product of the stages' emits. */
export const outputsPerItem = (spec: Pick<ExperimentSpec, 'stages'>): number =>
  spec.stages.reduce((product, s) => product * (s.emits ?? 1), 1);

/** Items out of the last stage over the whole run. */
export const itemsOut = (spec: Pick<ExperimentSpec, 'stages' | 'items'>): number =>
  spec.items * outputsPerItem(spec);
