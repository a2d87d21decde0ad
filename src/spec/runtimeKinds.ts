// The runtime kinds of the ExperimentSpec: for each, the top-level fields it takes and how it
// derives its thread and token counts — the one place to add a kind in TypeScript. Its C++ twin
// is runtime_kinds() in wasm/include/pipelab/pipeline/spec_parse.hpp; contracts/spec.md
// ("Adding a runtime kind") lists what else a new kind touches.
import { LIMITS } from './limits';
import { notTaken, readInteger, SpecError, type JsonObject } from './specFields';

/** Every top-level field, in the order messages list them. */
export const TOP_FIELDS = [
  'runtime',
  'stages',
  'threads',
  'tokens',
  'queue',
  'items',
  'seed',
  'cores',
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
}

const STATIC_FIELDS = TOP_FIELDS.filter((f) => f !== 'tokens');

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

/** Work-stealing: a pool of workers, any stage each. */
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
    fields: TOP_FIELDS,
    carries: [],
    threads: workerThreads,
    tokens: tokensInFlight,
  },
} satisfies Record<string, RuntimeKindRules>;

export type Runtime = keyof typeof RUNTIME_KINDS;
export const RUNTIMES = Object.keys(RUNTIME_KINDS) as Runtime[];
