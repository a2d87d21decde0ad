// Exact throughput of a small tandem with bounded buffers and blocking after service (a CTMC).
import { MAX_SERVERS, ModelArgumentError, checkInteger, checkPositive } from './args';
import type { StationArgs } from './closedPipeline';
import { stationary, type Transition } from './markovSolve';

export interface BoundedPipelineArgs {
  stages: StationArgs[];
  /** Waiting slots before each later stage: one number for all, or one per stage 1..K−1. */
  buffers: number | number[];
  /** Give up (ModelArgumentError) past this many states; default and most 200,000. */
  maxStates?: number;
}

export interface BoundedPipelineResult {
  throughput: number;
  utilization: number[];
  states: number;
}

const MAX_STATES = 200_000;

/**
 * Stage 0 is saturated (always has a next item, like the runtime's input thread). A server that
 * finishes while the next stage has no free server and no free slot holds its item (blocked) until
 * a slot frees. State per stage i: waiting q_i, serving s_i, blocked b_i (stage 0: blocked only).
 */
export function boundedPipeline({
  stages,
  buffers,
  maxStates = MAX_STATES,
}: BoundedPipelineArgs): BoundedPipelineResult {
  const stateLimit = Math.min(maxStates, MAX_STATES);
  if (!Array.isArray(stages) || stages.length < 1) {
    throw new ModelArgumentError('stages', stages?.length ?? stages, 'a non-empty array');
  }
  stages.forEach((s, i) => {
    checkPositive(`stages[${i}].serviceTime`, s.serviceTime);
    checkInteger(`stages[${i}].servers`, s.servers, 1, MAX_SERVERS);
  });
  const k = stages.length;
  const slots = stages.map((_, i) => {
    if (i === 0) return 0;
    const b = Array.isArray(buffers) ? buffers[i - 1] : buffers;
    return checkInteger(Array.isArray(buffers) ? `buffers[${i - 1}]` : 'buffers', b, 0, 65536);
  });
  const servers = stages.map((s) => s.servers);
  // Layout: [q_i, s_i, b_i] per stage, flat.
  const initial = new Array<number>(3 * k).fill(0);
  initial[1] = servers[0];
  const index = new Map<string, number>([[initial.join(','), 0]]);
  const list = [initial];
  const transitions: Transition[] = [];
  const departureRate: number[] = [];
  for (let at = 0; at < list.length; at++) {
    const state = list[at];
    departureRate.push(state[3 * (k - 1) + 1] / stages[k - 1].serviceTime);
    for (let i = 0; i < k; i++) {
      const serving = state[3 * i + 1];
      if (serving === 0) continue;
      const next = complete(state, i, servers, slots);
      const key = next.join(',');
      let to = index.get(key);
      if (to === undefined) {
        to = list.length;
        if (to >= stateLimit)
          throw new ModelArgumentError('stages', k, `a chain below ${stateLimit} states`);
        index.set(key, to);
        list.push(next);
      }
      if (to !== at) transitions.push({ from: at, to, rate: serving / stages[i].serviceTime });
    }
  }
  const pi = stationary(list.length, transitions);
  let throughput = 0;
  pi.forEach((p, s) => (throughput += p * departureRate[s]));
  return {
    throughput,
    utilization: stages.map((s) => (throughput * s.serviceTime) / s.servers),
    states: list.length,
  };
}

/** The state after one service completion at stage i (moves, blocks and the unblocking cascade). */
function complete(state: number[], i: number, servers: number[], slots: number[]): number[] {
  const st = state.slice();
  const q = (j: number) => 3 * j;
  const s = (j: number) => 3 * j + 1;
  const b = (j: number) => 3 * j + 2;
  const last = servers.length - 1;
  if (i < last) {
    const j = i + 1;
    if (st[s(j)] + st[b(j)] < servers[j]) st[s(j)]++;
    else if (st[q(j)] < slots[j]) st[q(j)]++;
    else {
      st[s(i)]--;
      st[b(i)]++;
      return st;
    }
  }
  st[s(i)]--;
  // A server at stage `at` is free: it takes the next waiting item; a freed slot or server
  // unblocks one finished item upstream, which frees a server there, and so on.
  for (let at = i; ; at--) {
    if (at === 0) {
      st[s(0)]++;
      return st;
    }
    if (st[q(at)] > 0) {
      st[q(at)]--;
      st[s(at)]++;
      if (st[b(at - 1)] === 0) return st;
      st[b(at - 1)]--;
      st[q(at)]++;
    } else {
      if (st[b(at - 1)] === 0) return st;
      st[b(at - 1)]--;
      st[s(at)]++;
    }
  }
}
