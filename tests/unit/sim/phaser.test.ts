// The phaser runtime's twin: the same graphs as the C++ runtime, with the same outcomes — the
// sink's values of a sequential run, the sieve's primes and a task per prime on the board, the
// split-join's sums, the ring completing with batching requested (its streams not batched) and
// stalling when cycle detection is off; the bound at every publish and wait from the telemetry;
// the per-phase synchronisation that batching saves; and a seed that reproduces every event.
import { describe, expect, test } from 'vitest';
import { createSimulation } from '../../../src/runtimes';
import { MAX_STREAMS, MAX_TASKS } from '../../../src/model/phaserCosts';
import type { ExperimentSpec } from '../../../src/spec/experimentSpec';
import { BoardWriter, boardBytes, readBoard, type EventInput } from '../../../src/telemetry';
import { avgPipeline, primesThrough, ring, sieve, sinkValues, splitJoin } from './phaserSpecs';

function run(spec: ExperimentSpec) {
  const events: EventInput[] = [];
  const buffer = new ArrayBuffer(boardBytes(MAX_TASKS, MAX_STREAMS));
  const board = new BoardWriter(buffer, 0, MAX_TASKS, MAX_STREAMS);
  const sim = createSimulation(spec, { sink: (e) => events.push(e), board });
  return { sim, events, board: () => readBoard(buffer, 0) };
}

describe('phaser twin', () => {
  test.each([1, 3, 16])('avg/abs pipeline gives the sequential sink values, batch %i', (batch) => {
    const spec = avgPipeline({ items: 300, batch, us: 2 });
    const sim = createSimulation(spec);
    expect(sim.runToEnd().completed).toBe(300);
    expect(sim.outputs()).toEqual(sinkValues(spec));
  });

  test.each([1, 8])('split-join sums equal a sequential sum, batch %i', (batch) => {
    const spec = splitJoin({ items: 400, batch, us: 1 }, 4);
    const sim = createSimulation(spec);
    sim.runToEnd();
    const want = sinkValues(spec);
    expect(sim.outputs()).toEqual(want);
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    expect(sum(sim.outputs())).toBe(sum(want));
    // Each element reaches the join as x·(1 + 2 + 3 + 4), x = 2, 3, ...
    expect(want.slice(0, 2)).toEqual([20, 30]);
  });

  test.each([
    [2, 1],
    [100, 1],
    [400, 4],
    [1200, 64],
  ])('the sieve to %i finds the sequential primes, a task per prime (batch %i)', (m, batch) => {
    const spec = sieve({ batch, us: 1 }, m);
    const { sim, board } = run(spec);
    const result = sim.runToEnd();
    const primes = primesThrough(m);
    expect(result.completed).toBe(m - 1);
    const tasks = board().tasks;
    // source + sink + a sieve task per prime + the last, empty tail.
    expect(tasks).toHaveLength(2 + primes.length + 1);
    const labels = tasks.filter((t) => t.stage === 1 && t.label !== 0).map((t) => t.label);
    expect(labels).toEqual(primes);
    expect(tasks.every((t) => t.state === 'done')).toBe(true);
    // Each new tail's parent is the filter before it.
    const sieveTasks = tasks.filter((t) => t.stage === 1);
    for (let i = 1; i < sieveTasks.length; i++)
      expect(sieveTasks[i].parent).toBe(sieveTasks[i - 1].id);
  });

  test('the ring completes with batching requested: its streams run non-batched', () => {
    const spec = ring({ items: 1000, batch: 64 }, 6);
    const { sim, board } = run(spec);
    expect(sim.runToEnd().completed).toBe(1000);
    const b = board();
    expect(b.cyclicStreams).toBe(6);
    expect(b.streams.every((s) => s.cyclic && !s.batched && s.batch === 1)).toBe(true);
  });

  test('batching "always" (no cycle detection) stalls the ring: reported, and the run stops', () => {
    const spec = { ...ring({ items: 3000, batch: 64 }, 4), batching: 'always' as const };
    const { sim, board } = run(spec);
    sim.advanceTo(1e9);
    expect(sim.done).toBe(false);
    expect(sim.failure()).toBe(
      'stalled: no task can run, 4 tasks wait forever (r0 waits for phase 0 of streams[3]; r1 waits for phase 0 of streams[0]; r2 waits for phase 0 of streams[1]; r3 waits for phase 0 of streams[2])',
    );
    expect(board().stalled).toBe(true);
    expect(() => createSimulation(spec).runToEnd()).toThrow(/^stalled/);
  });

  test.each([1, 4])('the bound holds at every publish and wait (batch %i)', (batch) => {
    const spec = splitJoin({ items: 300, batch, bound: 2, us: 3 }, 3);
    const { sim, events } = run(spec);
    sim.runToEnd();
    const ops = events.filter((e) => e.kind === 'enqueue' || e.kind === 'dequeue');
    expect(ops.length).toBeGreaterThan(0);
    for (const e of ops) {
      expect(e.arg).toBeGreaterThanOrEqual(0);
      expect(e.arg).toBeLessThanOrEqual(2);
    }
  });

  test('batching saves the per-phase synchronisation: push/pop runs far faster batched', () => {
    const rate = (batch: number) =>
      createSimulation(splitJoin({ items: 5000, batch, us: 0 }, 1)).runToEnd().throughputPerUs;
    expect(rate(1024)).toBeGreaterThan(5 * rate(1));
  });

  test('tasks outnumber threads: every thread runs many of them, and the board says which', () => {
    const spec = sieve({ batch: 1, us: 2, threads: 2 }, 300);
    const { sim, events, board } = run(spec);
    sim.runToEnd();
    const threadsOf = new Map<number, Set<number>>();
    for (const e of events)
      if (e.kind === 'start')
        threadsOf.set(e.arg, (threadsOf.get(e.arg) ?? new Set()).add(e.worker));
    expect(threadsOf.size).toBe(board().tasks.length - 1); // the last tail serves nothing
    const perThread = [0, 1].map((w) => board().tasks.filter((t) => t.thread === w).length);
    expect(perThread[0] + perThread[1]).toBe(board().tasks.length);
    expect(Math.min(...perThread)).toBeGreaterThan(10);
  });

  test('a seed reproduces every event', () => {
    const spec = avgPipeline({ items: 200, batch: 4, us: 5, seed: 9 });
    const a = run(spec);
    const b = run(spec);
    a.sim.runToEnd();
    b.sim.runToEnd();
    expect(b.events).toEqual(a.events);
  });
});
