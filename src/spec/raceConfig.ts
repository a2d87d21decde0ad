// The queue race's vocabulary on the page: what one run measures (RaceConfig, the JSON that
// pl_race_start reads — wasm/include/pipelab/race/race_config.hpp, same names, defaults and
// ranges; tests/wasm/race.test.ts checks the two agree), what it reports (RaceResult, from
// race_json.hpp) and where a queue's fields sit in memory (QueueLayout).

/** The contenders, in the order the race shows them (names as the queue benchmark's). */
export const RACE_QUEUES = [
  'batch',
  'batch-unpadded',
  'lamport',
  'lamport-unpadded',
  'cached-spsc',
  'cached-spsc-batched',
  'fastforward',
  'vyukov-mpmc',
  'mutex',
] as const;
export type RaceQueue = (typeof RACE_QUEUES)[number];

/** comm: nothing between items; matrix: one row of an L1-sized matrix product per item and
 * stage; work: busy work of workUs / stages µs per item and stage (the speed-up model). */
export const RACE_VARIANTS = ['comm', 'matrix', 'work'] as const;
export type RaceVariant = (typeof RACE_VARIANTS)[number];

/** Queues that hold items back until a semi-buffer (batch) fills or the producer flushes. */
export const BATCHING_QUEUES: readonly RaceQueue[] = [
  'batch',
  'batch-unpadded',
  'cached-spsc-batched',
];

/** Items are 8 bytes: this many fill one 64-byte cache line. */
export const ITEMS_PER_LINE = 8;

export interface RaceConfig {
  queue: RaceQueue;
  variant?: RaceVariant;
  /** Threads in the chain; 1 = no queue (the sequential baseline). */
  stages?: number;
  /** BatchQueue semi-buffer (cached-spsc-batched: its batch), in items, whole cache lines. */
  semiItems?: number;
  /** The matrix variant's n (n x n doubles, three of them per thread). */
  matrixSize?: number;
  /** The work variant's work per item, split evenly over the stages, µs. */
  workUs?: number;
  /** How long stage 0 makes items, ms. */
  durationMs?: number;
  /** > 0: the latency probe, stage 0 paced at this many items/s (2 stages only). */
  offeredPerS?: number;
}

export const RACE_DEFAULTS: Required<Omit<RaceConfig, 'queue'>> = {
  variant: 'comm',
  stages: 2,
  semiItems: 512,
  matrixSize: 32,
  workUs: 0,
  durationMs: 300,
  offeredPerS: 0,
};

/** Inclusive ranges of the numeric fields (race_limits in race_config.hpp). */
export const RACE_LIMITS = {
  stages: [1, 8],
  semiItems: [8, 4096],
  matrixSize: [2, 64],
  workUs: [0, 1000],
  durationMs: [10, 10000],
  offeredPerS: [0, 100000000],
} as const;

export interface RaceResult {
  /** The run's config with every default filled. */
  config: Required<RaceConfig>;
  cancelled: boolean;
  /** Items stage 0 made; every one reached the last stage unless cancelled. */
  made: number;
  received: number;
  outOfOrder: number;
  /** Items in the timed window (after the warm-up) and its length on the last stage's clock. */
  timedItems: number;
  timedUs: number;
  itemsPerS: number;
  /** The latency probe: how long items waited before the consumer saw them, ns. */
  latencySamples: number;
  latencyMeanNs: number;
  latencyMedianNs: number;
  latencyP99Ns: number;
  /** Items of the partial semi-buffer that only the final flush() published, and the last one's
   * wait. */
  tailItems: number;
  tailLatencyNs: number;
  /** The estimated offset between the two threads' clocks and its round trip, ns. */
  clockOffsetNs: number;
  clockRoundTripNs: number;
}

/** Where the parts of a queue object sit, from the C++ offsetof (pl_queue_layout). */
export interface QueueLayout {
  objectBytes: number;
  lineBytes: number;
  fields: Array<{
    name: string;
    offset: number;
    bytes: number;
    writer: 'producer' | 'consumer' | 'both' | 'none';
  }>;
}

/** The queues whose padded and unpadded layouts the lesson compares. */
export const LAYOUT_QUEUES = ['batch', 'batch-unpadded', 'lamport', 'lamport-unpadded'] as const;
export type LayoutQueue = (typeof LAYOUT_QUEUES)[number];

/** A stable key for "the same measurement" (repeats of it share the key). */
export function raceKey(c: RaceConfig): string {
  const f = { ...RACE_DEFAULTS, ...c };
  return [f.queue, f.variant, f.stages, f.semiItems, f.matrixSize, f.workUs, f.offeredPerS].join(
    '|',
  );
}
