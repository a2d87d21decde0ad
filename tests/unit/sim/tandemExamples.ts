// Tandem examples for the CI tests and the benchmark: exponential stages with exact solutions.
import type { StationArgs } from '../../../src/model';
import { parseExperimentSpec, type ExperimentSpec } from '../../../src/spec/experimentSpec';

export interface TandemExample {
  name: string;
  kind: 'closed-loop' | 'bounded';
  stations: StationArgs[];
  /** Tokens (closed loop) or waiting slots before each later stage (bounded). */
  size: number;
}

export const TANDEM_EXAMPLES: TandemExample[] = [
  {
    name: 'loop 1|2x2|1.5, N=4',
    kind: 'closed-loop',
    stations: [
      { serviceTime: 1, servers: 1 },
      { serviceTime: 2, servers: 2 },
      { serviceTime: 1.5, servers: 1 },
    ],
    size: 4,
  },
  {
    name: 'loop 1|8x8|0.5, N=6',
    kind: 'closed-loop',
    stations: [
      { serviceTime: 1, servers: 1 },
      { serviceTime: 8, servers: 8 },
      { serviceTime: 0.5, servers: 1 },
    ],
    size: 6,
  },
  {
    name: 'bounded 1|2x2|1.5, B=2',
    kind: 'bounded',
    stations: [
      { serviceTime: 1, servers: 1 },
      { serviceTime: 2, servers: 2 },
      { serviceTime: 1.5, servers: 1 },
    ],
    size: 2,
  },
  {
    name: 'bounded 1|8x8|0.5, B=4',
    kind: 'bounded',
    stations: [
      { serviceTime: 1, servers: 1 },
      { serviceTime: 8, servers: 8 },
      { serviceTime: 0.5, servers: 1 },
    ],
    size: 4,
  },
];

/** The example as a static-runtime spec: exponential service, one thread per server; the closed
 * loop runs with unbounded queues and an in-flight limit of `size`, the bounded one with capacity
 * `size`. */
export function tandemSpec(example: TandemExample, items: number, seed: number): ExperimentSpec {
  return parseExperimentSpec({
    runtime: 'static',
    stages: example.stations.map((s, i) => ({
      name: `s${i}`,
      mode: s.servers > 1 ? 'parallel' : 'serial-out-of-order',
      threads: s.servers,
      service: { kind: 'exponential', meanUs: s.serviceTime },
    })),
    queue: { kind: 'mutex', capacity: example.kind === 'bounded' ? example.size : null },
    items,
    seed,
  });
}
