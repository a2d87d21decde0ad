// The runtime kinds of the ExperimentSpec: for each, the top-level fields it takes and how it
// The runtime kinds of the ExperimentSpec: for each, the top-level fields it takes and how it
// derives its thread and token counts — the one place for a kind's spec rules in TypeScript (what
// the kind means beyond them is its module in src/runtimes). Its C++ row is in
// wasm/include/pipelab/pipeline/runtime_kinds.hpp; contracts/spec.md ("Adding a runtime kind")
// lists what else a new kind touches.
import { readBarrierFields } from './barrierFields';
import { LIMITS } from './limits';
import { notTaken, readInteger, SpecError, type JsonObject } from './specFields';
import {
  checkTwoStageShape,
  twoStageInputFields,
  twoStageOutputFields,
  twoStageThreads,
  type StageShape,
  type TwoStageKind,
} from './twoStageRules';

/** Every top-level field, in the order messages list them. */
export const TOP_FIELDS = [
  'runtime',
  'stages',
  'threads',
  'tokens',
  'queue',
  'variant',
  'batchItems',
  'buffers',
  'streams',
  'bound',
  'batch',
  'batching',
  'items',
  'seed',
  'cores',
  'barrier',
  'schedule',
  'quantumUs',
] as const;
export type TopField = (typeof TOP_FIELDS)[number];

export interface RuntimeKindRules {
  /** The top-level fields it takes; any other is rejected as "not taken by the <kind> runtime". */
  fields: readonly TopField[];
  /** Fields a normalised spec carries for every runtime though this one takes none of them:
   * accepted only at their normalised value, so a normalised spec validates to itself. */
  carries: readonly TopField[];
  /** The thread count after defaults, checked against the stage threads. */
  threads(obj: JsonObject, stageThreads: number[]): number;
  /** The token count after defaults. */
  tokens(obj: JsonObject, threads: number, kind: string): number;
  /** The stages the kind needs, checked once they are read (two-stage kinds: a fixed shape). */
  checkStages?(stages: readonly StageShape[]): void;
  /** The kind's own fields with their defaults, read after `queue`, in normalised key order
   * (the barrier kind's rules also read the stages and the thread count parsed so far). */
  ownFields?(obj: JsonObject, stageThreads: number[], parsed: KindInputs): JsonObject;
}

/** What a kind's ownFields() may read from the spec parsed so far. */
export interface KindInputs {
  stages: ReadonlyArray<{ service: { kind: string; us?: number } }>;
  threads: number;
}

/** The fields only the two-stage runtimes take, and only the barrier runtime. */
const TWO_STAGE_ONLY: readonly TopField[] = ['variant', 'batchItems', 'buffers'];
const BARRIER_ONLY: readonly TopField[] = ['barrier', 'schedule', 'quantumUs'];
/** The phaser runtime's own fields: its stream graph (src/spec/phaserGraph.ts). */
const PHASER_ONLY: readonly TopField[] = ['streams', 'bound', 'batch', 'batching'];
/** The fields of the original kinds: every field but the two-stage, barrier and phaser runtimes'
 * own. */
const PIPELINE_FIELDS = TOP_FIELDS.filter(
  (f) => !TWO_STAGE_ONLY.includes(f) && !BARRIER_ONLY.includes(f) && !PHASER_ONLY.includes(f),
);
const STATIC_FIELDS = PIPELINE_FIELDS.filter((f) => f !== 'tokens');
const TWO_STAGE_OUTPUT_FIELDS = TOP_FIELDS.filter(
  (f) => f !== 'tokens' && f !== 'queue' && !BARRIER_ONLY.includes(f) && !PHASER_ONLY.includes(f),
);
const TWO_STAGE_INPUT_FIELDS = TWO_STAGE_OUTPUT_FIELDS.filter((f) => f !== 'buffers');
/** Barrier: no tokens and no queue (both carried at their normalised values). */
const BARRIER_FIELDS = TOP_FIELDS.filter(
  (f) => f !== 'tokens' && f !== 'queue' && !TWO_STAGE_ONLY.includes(f) && !PHASER_ONLY.includes(f),
);
/** Phaser: no tokens and no queue either (both carried). */
const PHASER_FIELDS = TOP_FIELDS.filter(
  (f) =>
    f !== 'tokens' && f !== 'queue' && !TWO_STAGE_ONLY.includes(f) && !BARRIER_ONLY.includes(f),
);

/** Static and collapsed: the sum of the stage threads (a fused stage of the collapsed runtime
 * is served by the sum of its threads); a given `threads` must equal it. */
function sumOfStageThreads(obj: JsonObject, stageThreads: number[]): number {
  const sum = stageThreads.reduce((a, b) => a + b, 0);
  const [min, max] = LIMITS.threads;
  if (obj.threads === undefined) {
    if (sum > max) {
      throw new SpecError(
        'stages',
        `${sum} threads in total is out of range (allowed ${min}..${max})`,
      );
    }
    return sum;
  }
  const threads = readInteger(obj.threads, 'threads', min, max);
  if (threads !== sum) {
    throw new SpecError(
      'threads',
      `${threads} differs from the sum of stage threads (allowed ${sum})`,
    );
  }
  return threads;
}

/** Work-stealing: a pool of workers, any stage each. Barrier: the threads meeting at it. Phaser:
 * the pool its tasks share. */
const workerThreads = (obj: JsonObject) =>
  obj.threads === undefined ? 1 : readInteger(obj.threads, 'threads', ...LIMITS.threads);

/** Work-stealing: items in flight, default one per worker. */
const tokensInFlight = (obj: JsonObject, threads: number) =>
  obj.tokens === undefined ? threads : readInteger(obj.tokens, 'tokens', ...LIMITS.tokens);

/** A runtime without tokens carries tokens = threads in its normalised spec. */
function tokensAsThreads(obj: JsonObject, threads: number, kind: string): number {
  if (obj.tokens !== undefined && obj.tokens !== threads) {
    throw notTaken('tokens', RUNTIME_KINDS[kind as Runtime].fields, `the ${kind} runtime`);
  }
  return threads;
}

/** Dempsey's two-stage I/O (seed 002; rules in twoStageRules.ts). Neither takes tokens or a
 * queue: both are carried at their normalised values (tokens = threads, the default queue). */
function twoStageKind(
  kind: TwoStageKind,
  fields: readonly TopField[],
  ownFields: RuntimeKindRules['ownFields'],
): RuntimeKindRules {
  return {
    fields,
    carries: ['tokens', 'queue'],
    threads: (obj, stageThreads) => twoStageThreads(kind, obj, stageThreads, sumOfStageThreads),
    tokens: tokensAsThreads,
    checkStages: (stages) => checkTwoStageShape(kind, stages),
    ownFields,
  };
}

/** The runtime kinds, in the order messages list them. */
export const RUNTIME_KINDS = {
  static: {
    fields: STATIC_FIELDS,
    carries: ['tokens'],
    threads: sumOfStageThreads,
    tokens: tokensAsThreads,
  },
  collapsed: {
    fields: STATIC_FIELDS,
    carries: ['tokens'],
    threads: sumOfStageThreads,
    tokens: tokensAsThreads,
  },
  'work-stealing': {
    fields: PIPELINE_FIELDS,
    carries: [],
    threads: workerThreads,
    tokens: tokensInFlight,
  },
  'two-stage-output': twoStageKind(
    'two-stage-output',
    TWO_STAGE_OUTPUT_FIELDS,
    twoStageOutputFields,
  ),
  'two-stage-input': twoStageKind('two-stage-input', TWO_STAGE_INPUT_FIELDS, twoStageInputFields),
  /** T threads repeat (compute, barrier) for `items` intervals: src/spec/barrierFields.ts. */
  barrier: {
    fields: BARRIER_FIELDS,
    carries: ['tokens', 'queue'],
    threads: workerThreads,
    tokens: tokensAsThreads,
    ownFields: readBarrierFields,
  },
  // Tasks on bounded phasers, multiplexed onto `threads` pool threads. It has no queue: `queue`
  // is carried at its default only (experimentSpec.ts), as `tokens` is at `threads`.
  phaser: {
    fields: PHASER_FIELDS,
    carries: ['tokens', 'queue'],
    threads: workerThreads,
    tokens: tokensAsThreads,
  },
} satisfies Record<string, RuntimeKindRules>;

export type Runtime = keyof typeof RUNTIME_KINDS;
export const RUNTIMES = Object.keys(RUNTIME_KINDS) as Runtime[];
