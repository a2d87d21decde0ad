// Random ExperimentSpecs of every runtime kind at small sizes (fast-check), for the check that the
// C++ side runs whatever the TypeScript validator accepts: stages of every mode, service kind,
// emits and bypass; queues of every kind, bounded or not; each kind's own fields; phaser graphs
// of each shape (pipeline, split-join, sieve, ring, two sources). A candidate is written loosely
// (a serial stage may get two threads, a bypassed stage may emit): the validator decides, and the
// test keeps what it accepts. Items stay under 60 and service times under 30 µs, so a run lasts
// milliseconds.
import fc from 'fast-check';
import { KERNEL_NAMES, QUEUE_KINDS, STAGE_MODES } from '../../src/spec/experimentSpec';

type Json = Record<string, unknown>;

const service: fc.Arbitrary<Json> = fc.oneof(
  fc.record({ kind: fc.constant('fixed'), us: fc.integer({ min: 0, max: 30 }) }),
  fc.record({
    kind: fc.constant('exponential'),
    meanUs: fc.double({ min: 0, max: 30, noNaN: true }),
  }),
  fc
    .tuple(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 30 }))
    .map(([a, b]) => ({ kind: 'uniform', minUs: Math.min(a, b), maxUs: Math.max(a, b) })),
  fc.record({
    kind: fc.constant('bimodal'),
    fastUs: fc.integer({ min: 0, max: 5 }),
    slowUs: fc.integer({ min: 0, max: 30 }),
    slowFraction: fc.double({ min: 0, max: 1, noNaN: true }),
  }),
  fc.record({
    kind: fc.constant('kernel'),
    name: fc.constantFrom(...KERNEL_NAMES),
    size: fc.integer({ min: 1, max: 8 }),
  }),
);

const stage = (name: string): fc.Arbitrary<Json> =>
  fc
    .record({
      mode: fc.constantFrom(...STAGE_MODES),
      threads: fc.integer({ min: 1, max: 3 }),
      service,
      emits: fc.constantFrom(1, 1, 2, 3),
      bypass: fc.constantFrom(0, 0, 0.25, 0.5),
    })
    .map((s) => ({ name, ...s, threads: s.mode === 'parallel' ? s.threads : 1 }));

const stages = (n: { min: number; max: number }) =>
  fc
    .integer(n)
    .chain((count) => fc.tuple(...Array.from({ length: count }, (_, i) => stage(`s${i}`))));

const common = { items: fc.integer({ min: 1, max: 60 }), seed: fc.nat() };

const pipeline = fc.record({
  runtime: fc.constantFrom('static', 'collapsed'),
  stages: stages({ min: 1, max: 4 }),
  queue: fc.record({
    kind: fc.constantFrom(...QUEUE_KINDS),
    capacity: fc.option(fc.integer({ min: 1, max: 8 }), { nil: null }),
  }),
  ...common,
});

const workStealing = fc.record({
  runtime: fc.constant('work-stealing'),
  stages: stages({ min: 1, max: 4 }).map((list) =>
    list.map((s) => ({ ...s, emits: 1, bypass: 0 })),
  ),
  threads: fc.integer({ min: 1, max: 4 }),
  tokens: fc.integer({ min: 1, max: 8 }),
  ...common,
});

const twoStage = (runtime: 'two-stage-output' | 'two-stage-input') =>
  fc
    .record({
      runtime: fc.constant(runtime),
      threads: fc.integer({ min: 1, max: 3 }),
      serial: service,
      parallel: service,
      variant: fc.constantFrom('two-stage', 'dual-thread', 'serial'),
      batchItems: fc.integer({ min: 1, max: 16 }),
      buffers: fc.integer({ min: 2, max: 6 }),
      ...common,
    })
    .map(({ runtime, threads, serial, parallel, buffers, ...rest }) => {
      // Dual-thread and serial take one parallel thread.
      const work = {
        name: 'work',
        mode: 'parallel',
        threads: rest.variant === 'two-stage' ? threads : 1,
        service: parallel,
      };
      const io = { name: 'io', mode: 'serial-in-order', service: serial };
      const output = runtime === 'two-stage-output';
      return {
        runtime,
        stages: output ? [work, io] : [io, work],
        ...rest,
        ...(output ? { buffers } : {}),
      };
    });

const barrier = fc
  .record({
    threads: fc.integer({ min: 1, max: 3 }),
    usPerThread: fc.integer({ min: 100, max: 300 }),
    barrier: fc.constantFrom('spin', 'blocking'),
    schedule: fc.constantFrom('os', 'packed'),
    cores: fc.integer({ min: 1, max: 2 }),
    quantumUs: fc.integer({ min: 50, max: 500 }),
    items: fc.integer({ min: 1, max: 20 }),
    seed: fc.nat(),
  })
  .map(({ usPerThread, ...b }) => ({
    runtime: 'barrier',
    stages: [
      {
        name: 'compute',
        mode: 'parallel',
        service: { kind: 'fixed', us: usPerThread * b.threads },
      },
    ],
    ...b,
  }))
  // Spinning threads beyond the cores cost a time slice per interval: at most 2 (the machine's).
  .map((b) => ({ ...b, threads: b.barrier === 'spin' ? Math.min(b.threads, 2) : b.threads }));

const task = (name: string, op: string, threads = 1) => ({
  name,
  mode: threads > 1 ? 'parallel' : 'serial-in-order',
  threads,
  service: { kind: 'fixed', us: 2 },
  op,
});

/** The phaser graph shapes: each a list of stages and streams, given a few numbers. */
const graphs = {
  pipeline: (n: number, ops: string[]) => ({
    stages: [
      task('src', 'random'),
      ...ops.slice(0, n).map((op, i) => task(`t${i}`, op)),
      task('sink', 'pass'),
    ],
    streams: ['src', ...ops.slice(0, n).map((_, i) => `t${i}`)].map((from, i, all) => ({
      from: [from],
      to: [all[i + 1] ?? 'sink'],
    })),
  }),
  splitJoin: (n: number, ops: string[]) => ({
    stages: [
      task('a', 'count'),
      task('b', 'random'),
      task('split', 'split', n),
      task('join', 'pass'),
    ],
    streams: [
      { from: ['a', 'b'], to: ['split'], reduce: ops[0] === 'abs' ? 'sum' : 'max' },
      { from: ['split'], to: ['join'], reduce: ops[1] === 'abs' ? 'min' : 'any' },
    ],
  }),
  sieve: () => ({
    stages: [task('numbers', 'count'), task('filter', 'sieve'), task('primes', 'pass')],
    streams: [
      { from: ['numbers'], to: ['filter'] },
      { from: ['filter'], to: ['primes'] },
    ],
  }),
  ring: (n: number) => ({
    stages: Array.from({ length: n + 1 }, (_, i) => task(`r${i}`, i === 0 ? 'token' : 'hop')),
    streams: Array.from({ length: n + 1 }, (_, i) => ({
      from: [`r${i}`],
      to: [`r${(i + 1) % (n + 1)}`],
    })),
  }),
};

const phaser = fc
  .record({
    shape: fc.constantFrom(...(Object.keys(graphs) as Array<keyof typeof graphs>)),
    n: fc.integer({ min: 1, max: 3 }),
    ops: fc.array(fc.constantFrom('pass', 'avg', 'abs'), { minLength: 3, maxLength: 3 }),
    threads: fc.integer({ min: 1, max: 3 }),
    bound: fc.integer({ min: 1, max: 6 }),
    batch: fc.integer({ min: 1, max: 6 }),
    always: fc.boolean(),
    ...common,
  })
  .map(({ shape, n, ops, always, ...rest }) => ({
    runtime: 'phaser',
    ...graphs[shape](n, ops),
    // A ring batched "always" deadlocks on purpose (the lesson's demonstration): not a valid run.
    batching: always && shape !== 'ring' ? 'always' : 'adaptive',
    ...rest,
  }));

/** A candidate spec of any kind: the validator decides whether it is one. */
export const candidateSpec: fc.Arbitrary<Json> = fc.oneof(
  { arbitrary: pipeline, weight: 2 },
  workStealing,
  twoStage('two-stage-output'),
  twoStage('two-stage-input'),
  barrier,
  { arbitrary: phaser, weight: 2 },
);
