// The plans the lesson's race panels run: lists of race configs, every contender once per round
// and the contenders in a rotating order from round to round (as the queue benchmark interleaves
// them), so load from the rest of the machine falls on all of them alike and ratios can be paired
// by round (live/raceSummary.ts).
import {
  ITEMS_PER_LINE,
  RACE_QUEUES,
  type RaceConfig,
  type RaceQueue,
  type RaceVariant,
} from '../../spec/raceConfig';

/** Rounds per plan: enough for a median and a range, short enough to watch (~7 s per race). */
export const RACE_ROUNDS = 3;
/** Each run: ~a quarter second, timed after its first fifth. */
export const RACE_RUN_MS = 250;
/** The queue benchmark's semi-buffer, 512 8-byte items (64 cache lines), so a race compares
 * with the committed benchmark results (the paper's whole buffer was 64 lines). */
export const RACE_SEMI_ITEMS = 512;

/** One run of a plan, for its progress report: the queue and what sets it apart, and its round. */
export function raceRunLabel(config: RaceConfig, round: number): string {
  const parts: string[] = [config.queue];
  if (config.variant && config.variant !== 'comm') parts.push(config.variant);
  if (config.stages !== undefined && config.stages !== 2)
    parts.push(config.stages === 1 ? 'alone' : `${config.stages} threads`);
  if (config.semiItems !== undefined && config.semiItems !== RACE_SEMI_ITEMS)
    parts.push(`${config.semiItems / ITEMS_PER_LINE} lines`);
  if (config.offeredPerS) parts.push('latency');
  return `${parts.join(', ')} (round ${round + 1})`;
}

/** `rounds` rounds of `configs`, rotated by one more each round. */
export function interleave(configs: RaceConfig[], rounds = RACE_ROUNDS): RaceConfig[] {
  const out: RaceConfig[] = [];
  for (let r = 0; r < rounds; r++)
    for (let i = 0; i < configs.length; i++) out.push(configs[(i + r) % configs.length]);
  return out;
}

/** The race: every queue in one variant and chain length. */
export function racePlan(variant: RaceVariant, stages: number): RaceConfig[] {
  return interleave(
    RACE_QUEUES.map((queue) => ({
      queue,
      variant,
      stages,
      semiItems: RACE_SEMI_ITEMS,
      durationMs: RACE_RUN_MS,
    })),
  );
}

/** comm on 2 threads for a few queues, side by side (the same runs as the race's comm-2). */
export function commPlan(queues: readonly RaceQueue[]): RaceConfig[] {
  return interleave(queues.map((queue) => commConfig(queue)));
}

/** Per item against batched: the same ring publishing each item or each 512 (cached-index), and
 * BatchQueue against Lamport's ring. */
export const FENCE_QUEUES: readonly RaceQueue[] = [
  'cached-spsc',
  'cached-spsc-batched',
  'lamport',
  'batch',
];

/** Padded against unpadded layouts, side by side (comm, 2 threads). */
export const FALSE_SHARING_QUEUES: readonly RaceQueue[] = [
  'batch',
  'batch-unpadded',
  'lamport',
  'lamport-unpadded',
];

/** The latency probe's offered rate: one item per µs, so a semi-buffer of S items fills in S µs. */
export const LATENCY_OFFERED_PER_S = 1_000_000;
export const SEMI_LINE_CHOICES = [1, 2, 4, 8, 16, 32, 64] as const;

/** BatchQueue at one semi-buffer size: its throughput (comm) and the wait at the offered rate. */
export function semiConfigs(lines: number): { throughput: RaceConfig; latency: RaceConfig } {
  const semiItems = lines * ITEMS_PER_LINE;
  return {
    throughput: { queue: 'batch', semiItems, durationMs: RACE_RUN_MS },
    latency: {
      queue: 'batch',
      semiItems,
      durationMs: RACE_RUN_MS,
      offeredPerS: LATENCY_OFFERED_PER_S,
    },
  };
}
export function semiPlan(lines: readonly number[]): RaceConfig[] {
  return interleave(
    lines.flatMap((l) => {
      const c = semiConfigs(l);
      return [c.throughput, c.latency];
    }),
  );
}

/** The speed-up model's queues: batched, slot-flagged, the MPMC stand-in and the lock. */
export const SPEEDUP_QUEUES: readonly RaceQueue[] = [
  'batch',
  'fastforward',
  'vyukov-mpmc',
  'mutex',
];

/** A linear pipeline of n stages splitting T_seq of work per item, n = 1 (no queue) .. maxStages,
 * and each queue's T_comm from a comm run. */
export function speedupConfigs(queue: RaceQueue, n: number, tSeqUs: number): RaceConfig {
  return {
    queue,
    variant: 'work',
    stages: n,
    workUs: tSeqUs,
    semiItems: RACE_SEMI_ITEMS,
    durationMs: RACE_RUN_MS,
  };
}
export function commConfig(queue: RaceQueue): RaceConfig {
  return { queue, variant: 'comm', stages: 2, semiItems: RACE_SEMI_ITEMS, durationMs: RACE_RUN_MS };
}
export function speedupPlan(maxStages: number, tSeqUs: number): RaceConfig[] {
  const configs: RaceConfig[] = [speedupConfigs('batch', 1, tSeqUs)];
  for (const q of SPEEDUP_QUEUES) {
    configs.push(commConfig(q));
    for (let n = 2; n <= maxStages; n++) configs.push(speedupConfigs(q, n, tSeqUs));
  }
  return interleave(configs);
}
