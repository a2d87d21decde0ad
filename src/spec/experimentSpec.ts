// The ExperimentSpec type and its validator, exactly per contracts/spec.md (defaults applied).
import {
  SpecError,
  join,
  readEnum,
  readInteger,
  readNumber,
  readObject,
  readString,
  requireField,
  type JsonObject,
} from './specFields';

export { SpecError } from './specFields';

export const RUNTIMES = ['static', 'collapsed', 'work-stealing'] as const;
export const STAGE_MODES = ['serial-in-order', 'serial-out-of-order', 'parallel'] as const;
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

export type Runtime = (typeof RUNTIMES)[number];
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
  /** Threads serving this stage (static/collapsed); ignored by work-stealing. */
  threads: number;
  service: ServiceSpec;
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
  items: number;
  seed: number;
  cores?: number;
}

const MAX_TIME_US = 1e6;
const TOP_FIELDS = ['runtime', 'stages', 'threads', 'tokens', 'queue', 'items', 'seed', 'cores'];
const STAGE_FIELDS = ['name', 'mode', 'threads', 'service'];
const SERVICE_FIELDS: Record<ServiceSpec['kind'], string[]> = {
  fixed: ['kind', 'us'],
  exponential: ['kind', 'meanUs'],
  uniform: ['kind', 'minUs', 'maxUs'],
  bimodal: ['kind', 'fastUs', 'slowUs', 'slowFraction'],
  kernel: ['kind', 'name', 'size'],
};
const SERVICE_KINDS = Object.keys(SERVICE_FIELDS) as ServiceSpec['kind'][];

function parseService(value: unknown, path: string): ServiceSpec {
  const allKeys = [...new Set(Object.values(SERVICE_FIELDS).flat())];
  const loose = readObject(value, path, allKeys);
  const kind = readEnum(requireField(loose, 'kind', path), join(path, 'kind'), SERVICE_KINDS);
  const obj = readObject(value, path, SERVICE_FIELDS[kind]);
  const time = (key: string) =>
    readNumber(requireField(obj, key, path), join(path, key), 0, MAX_TIME_US);
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
      const fraction = readNumber(
        requireField(obj, 'slowFraction', path),
        join(path, 'slowFraction'),
        0,
        1,
      );
      return { kind, fastUs, slowUs, slowFraction: fraction };
    }
    case 'kernel': {
      const name = readEnum(requireField(obj, 'name', path), join(path, 'name'), KERNEL_NAMES);
      const size = readInteger(requireField(obj, 'size', path), join(path, 'size'), 1, 4096);
      return { kind, name, size };
    }
  }
}

/** Stage `threads` defaults to 1 (contracts/spec.md shows it on every stage but lists no default; 1
 * is the only value valid for every mode). Serial stages need 1 under every runtime, as in the C++ parser,
 * although work-stealing ignores the value. */
function parseStage(value: unknown, path: string): StageSpec {
  const obj = readObject(value, path, STAGE_FIELDS);
  const name = readString(requireField(obj, 'name', path), join(path, 'name'), 1, 32);
  const mode = readEnum(requireField(obj, 'mode', path), join(path, 'mode'), STAGE_MODES);
  const threads =
    obj.threads === undefined ? 1 : readInteger(obj.threads, join(path, 'threads'), 1, 64);
  if (mode !== 'parallel' && threads !== 1) {
    throw new SpecError(
      join(path, 'threads'),
      `${threads} is out of range (allowed 1 for a ${mode} stage)`,
    );
  }
  const service = parseService(requireField(obj, 'service', path), join(path, 'service'));
  return { name, mode, threads, service };
}

/** An absent queue takes the default; a present one needs both fields (as the C++ parser), so a
 * half-written queue is an error rather than a silent default. Null capacity = unbounded. */
function parseQueue(value: unknown): QueueSpec {
  if (value === undefined) return { kind: 'batch', capacity: 16 };
  const obj = readObject(value, 'queue', ['kind', 'capacity']);
  const kind = readEnum(requireField(obj, 'kind', 'queue'), 'queue.kind', QUEUE_KINDS);
  const raw = obj.capacity;
  if (raw === undefined)
    throw new SpecError('queue.capacity', 'missing (required; null = unbounded)');
  const capacity = raw === null ? null : readInteger(raw, 'queue.capacity', 1, 65536);
  return { kind, capacity };
}

function parseStages(obj: JsonObject): StageSpec[] {
  const raw = requireField(obj, 'stages', '');
  if (!Array.isArray(raw)) throw new SpecError('stages', `${JSON.stringify(raw)} is not an array`);
  if (raw.length < 1 || raw.length > 16) {
    throw new SpecError('stages', `${raw.length} stages is out of range (allowed 1..16)`);
  }
  return raw.map((stage, i) => parseStage(stage, join('stages', i)));
}

/** Validates untrusted JSON (lesson front matter, URL state) into a complete ExperimentSpec. */
export function parseExperimentSpec(json: unknown): ExperimentSpec {
  const obj = readObject(json, '', TOP_FIELDS);
  const runtime = readEnum(requireField(obj, 'runtime', ''), 'runtime', RUNTIMES);
  const stages = parseStages(obj);
  const stageThreads = stages.reduce((sum, s) => sum + s.threads, 0);
  let threads: number;
  if (runtime === 'work-stealing') {
    threads = obj.threads === undefined ? 1 : readInteger(obj.threads, 'threads', 1, 256);
  } else {
    // Collapsed keeps the static thread count: a fused stage is served by the sum of its threads.
    if (obj.threads === undefined && stageThreads > 256) {
      throw new SpecError(
        'stages',
        `${stageThreads} threads in total is out of range (allowed 1..256)`,
      );
    }
    threads =
      obj.threads === undefined ? stageThreads : readInteger(obj.threads, 'threads', 1, 256);
    if (threads !== stageThreads) {
      throw new SpecError(
        'threads',
        `${threads} differs from the sum of stage threads (allowed ${stageThreads})`,
      );
    }
  }
  const tokens = obj.tokens === undefined ? threads : readInteger(obj.tokens, 'tokens', 1, 4096);
  const queue = parseQueue(obj.queue);
  const items = readInteger(requireField(obj, 'items', ''), 'items', 1, 100_000_000);
  const seed = readInteger(requireField(obj, 'seed', ''), 'seed', 0, 0xffffffff);
  const spec: ExperimentSpec = { runtime, stages, threads, tokens, queue, items, seed };
  if (obj.cores !== undefined) spec.cores = readInteger(obj.cores, 'cores', 1, 256);
  return spec;
}
