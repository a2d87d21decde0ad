// Phaser graphs for the tests (the twin's unit tests and the two-engine suite under wasm): the
// lesson's patterns at test sizes, built as the spec format spells them, plus a sequential
// reference for what a sink receives and the primes of a classic sieve.
import { parseExperimentSpec, type ExperimentSpec } from '../../../src/spec/experimentSpec';
import { streamGraph } from '../../../src/spec/phaserGraph';

type Service = { kind: 'fixed'; us: number } | { kind: 'exponential'; meanUs: number };
const stage = (name: string, op: string, us: number | Service = 0, copies = 1) => ({
  name,
  mode: copies > 1 ? 'parallel' : 'serial-in-order',
  threads: copies,
  service: typeof us === 'number' ? { kind: 'fixed', us } : us,
  op,
});

interface Options {
  items: number;
  batch?: number;
  bound?: number;
  threads?: number;
  us?: number;
  seed?: number;
}

const phaser = (o: Options, stages: unknown[], streams: unknown[]): ExperimentSpec =>
  parseExperimentSpec({
    runtime: 'phaser',
    stages,
    streams,
    threads: o.threads ?? 2,
    bound: o.bound ?? 4,
    batch: o.batch ?? 1,
    items: o.items,
    seed: o.seed ?? 3,
  });

/** source → avg → abs → sink, the source a count (so the twin's values are known). */
export const avgPipeline = (o: Options) =>
  phaser(
    o,
    [
      stage('source', 'count', o.us),
      stage('avg', 'avg', o.us),
      stage('abs', 'abs', o.us),
      stage('sink', 'pass', o.us),
    ],
    [
      { from: ['source'], to: ['avg'] },
      { from: ['avg'], to: ['abs'] },
      { from: ['abs'], to: ['sink'] },
    ],
  );

/** N splitters on one input stream, joined by a sum. */
export const splitJoin = (o: Options, n: number) =>
  phaser(
    o,
    [stage('source', 'count', o.us), stage('split', 'split', o.us, n), stage('join', 'pass', o.us)],
    [
      { from: ['source'], to: ['split'] },
      { from: ['split'], to: ['join'], reduce: 'sum' },
    ],
  );

/** The Sieve of Eratosthenes over 2..m. */
export const sieve = (o: Omit<Options, 'items'>, m: number) =>
  phaser(
    { ...o, items: m - 1 },
    [
      stage('numbers', 'count', o.us),
      stage('filter', 'sieve', o.us),
      stage('primes', 'pass', o.us),
    ],
    [
      { from: ['numbers'], to: ['filter'] },
      { from: ['filter'], to: ['primes'] },
    ],
  );

/** n tasks in a ring passing a token `items` hops. */
export const ring = (o: Options, n: number) =>
  phaser(
    o,
    Array.from({ length: n }, (_, i) => stage(`r${i}`, i === 0 ? 'token' : 'hop', o.us)),
    Array.from({ length: n }, (_, i) => ({ from: [`r${i}`], to: [`r${(i + 1) % n}`] })),
  );

/** The sink's values for each element of a graph with a source (no sieve), one element at a
 * time in stage order. Needs count sources (the twin's random values are its own). */
export function sinkValues(spec: ExperimentSpec): number[] {
  const streams = spec.streams!;
  const g = streamGraph(spec.stages, streams);
  const index = new Map(spec.stages.map((s, i) => [s.name, i]));
  const order: number[] = [];
  while (order.length < spec.stages.length)
    spec.stages.forEach((_, s) => {
      if (order.includes(s)) return;
      const ready = g.inputs[s].every((k) =>
        streams[k].from.every((n) => order.includes(index.get(n)!)),
      );
      if (ready) order.push(s);
    });
  const out: number[][] = spec.stages.map(() => []);
  const previous = spec.stages.map(() => 0);
  const sink: number[] = [];
  for (let e = 0; e < spec.items; e++) {
    for (const s of order) {
      const st = spec.stages[s];
      let input = 0;
      for (const k of g.inputs[s]) {
        const r = streams[k].reduce;
        let acc = r === 'min' ? Infinity : r === 'max' ? -Infinity : 0;
        for (const n of streams[k].from)
          for (const v of out[index.get(n)!])
            acc =
              r === 'sum'
                ? acc + v
                : r === 'min'
                  ? Math.min(acc, v)
                  : r === 'max'
                    ? Math.max(acc, v)
                    : v;
        input += acc;
      }
      out[s] = Array.from({ length: st.threads }, (_, c) => {
        switch (st.op) {
          case 'count':
            return e + 2;
          case 'avg':
            return e === 0 ? input : Math.trunc((input + previous[s]) / 2);
          case 'abs':
            return Math.abs(input);
          case 'split':
            return input * (c + 1);
          default:
            return input;
        }
      });
      previous[s] = input;
      if (g.sink === s) sink.push(out[s][0]);
    }
  }
  return sink;
}

export function primesThrough(m: number): number[] {
  const composite = new Uint8Array(m + 1);
  const primes: number[] = [];
  for (let n = 2; n <= m; n++) {
    if (composite[n]) continue;
    primes.push(n);
    for (let k = n * n; k <= m; k += n) composite[k] = 1;
  }
  return primes;
}
