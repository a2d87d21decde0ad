// The stream-graph bound for the phaser runtime: what a graph of tasks on `threads` threads can do
// at most. Every task's work per item is its stage's mean service plus the runtime's own costs
// (phaserCosts.ts: an element in or out, a phase signalled or waited for — once per batch); then
//   X ≤ min(threads / Σ_tasks W_t,  1 / max_t W_t)
// — the threads cannot do more work than they have, and no item gets past the slowest task (the
// slowest branch, the fan-out node, or the sieve's first filter, which sees every integer). A ring
// has one token: one task works at a time, so X = 1 / W_hop, a hop also paying a task switch.
import type { ExperimentSpec } from '../spec/experimentSpec';
import { streamGraph } from '../spec/phaserGraph';
import { ELEMENT_US, PHASE_SYNC_US, TASK_SWITCH_US } from './phaserCosts';
import { meanServiceUs } from './serviceTime';

export interface StreamGraphBound {
  /** Items per µs (a ring: hops per µs). */
  throughputPerUs: number;
  /** Σ_t W_t: all tasks' work per item, µs. */
  totalWorkUs: number;
  /** max_t W_t and which task it is (a stage name). */
  slowestTaskUs: number;
  slowestTask: string;
}

/** Smallest prime factor of every n ≤ m (0 and 1 left 0). */
function smallestFactors(m: number): Int32Array {
  const spf = new Int32Array(m + 1);
  for (let n = 2; n <= m; n++) {
    if (spf[n] !== 0) continue;
    for (let k = n; k <= m; k += n) if (spf[k] === 0) spf[k] = n;
  }
  return spf;
}

export function streamGraphBound(spec: ExperimentSpec): StreamGraphBound {
  const streams = spec.streams ?? [];
  const g = streamGraph(spec.stages, streams);
  const ring = g.token !== null;
  const batch = ring ? 1 : (spec.batch ?? 1);
  const io = ELEMENT_US + PHASE_SYNC_US / batch; // one element taken or put
  const service = spec.stages.map((s) => meanServiceUs(s.service));
  const threads = Math.min(spec.threads, spec.cores ?? spec.threads);

  if (ring) {
    const hop = service[0] + 2 * (ELEMENT_US + PHASE_SYNC_US) + TASK_SWITCH_US;
    return {
      throughputPerUs: 1 / hop,
      totalWorkUs: hop,
      slowestTaskUs: hop,
      slowestTask: spec.stages[0].name,
    };
  }

  const work: Array<[string, number]> = [];
  let total = 0;
  if (g.sieve !== null) {
    const m = spec.items + 1;
    const spf = smallestFactors(m);
    const rank = new Int32Array(m + 1); // π(p) for each prime p
    let primes = 0;
    for (let n = 2; n <= m; n++) if (spf[n] === n) rank[n] = ++primes;
    // Integer n visits the filters of every prime below its smallest factor and that one's (where
    // a multiple leaves; a prime becomes the tail's), and is forwarded from all but the last.
    let visits = 0;
    for (let n = 2; n <= m; n++) visits += rank[spf[n]];
    const filter = service[g.sieve] + io;
    const filterWork = visits * filter + (visits - (m - 1)) * io + primes * (io + PHASE_SYNC_US);
    const source = service[g.sources[0]] + io;
    const sink = g.sink === null ? 0 : (service[g.sink] + io) * primes;
    total = (source * spec.items + filterWork + sink) / spec.items;
    // The first filter sees every integer and forwards the odd ones.
    work.push(
      [spec.stages[g.sources[0]].name, source],
      [`${spec.stages[g.sieve].name}(2)`, filter + io / 2],
    );
  } else {
    spec.stages.forEach((s, i) => {
      const w = service[i] + (g.inputs[i].length + g.outputs[i].length) * io;
      total += w * s.threads;
      work.push([s.name, w]);
    });
  }
  const [slowestTask, slowestTaskUs] = work.reduce((a, b) => (b[1] > a[1] ? b : a));
  return {
    throughputPerUs: Math.min(threads / total, 1 / slowestTaskUs),
    totalWorkUs: total,
    slowestTaskUs,
    slowestTask,
  };
}
