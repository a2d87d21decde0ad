// The stream-graph bound against the twin: the twin never beats it, and a balanced pipeline, a
// branched graph held by its slow branch and a ring come close to it; the bound names the task
// that holds a graph back, and batching moves only what synchronisation costs.
import { describe, expect, test } from 'vitest';
import { streamGraphBound } from '../../../src/model/streamGraphBound';
import { createSimulation } from '../../../src/runtimes';
import { parseExperimentSpec } from '../../../src/spec/experimentSpec';
import { avgPipeline, ring, sieve, splitJoin } from '../sim/phaserSpecs';

const twinPerUs = (spec: ReturnType<typeof avgPipeline>) =>
  createSimulation(spec).runToEnd().throughputPerUs;

const branched = parseExperimentSpec({
  runtime: 'phaser',
  threads: 4,
  stages: [
    { name: 'source', mode: 'serial-in-order', service: { kind: 'fixed', us: 10 }, op: 'random' },
    { name: 'fan', mode: 'serial-in-order', service: { kind: 'fixed', us: 10 }, op: 'pass' },
    { name: 'slow', mode: 'serial-in-order', service: { kind: 'fixed', us: 64 }, op: 'abs' },
    { name: 'fast', mode: 'serial-in-order', service: { kind: 'fixed', us: 6 }, op: 'pass' },
    { name: 'join', mode: 'serial-in-order', service: { kind: 'fixed', us: 10 }, op: 'pass' },
  ],
  streams: [
    { from: ['source'], to: ['fan'] },
    { from: ['fan'], to: ['slow', 'fast'] },
    { from: ['slow'], to: ['join'] },
    { from: ['fast'], to: ['join'] },
  ],
  items: 1000,
  seed: 1,
});

describe('stream-graph bound', () => {
  test.each([
    ['a balanced pipeline on 2 threads', avgPipeline({ items: 800, us: 20, threads: 2 })],
    ['a split-join on 3 threads', splitJoin({ items: 800, us: 20, threads: 3 }, 4)],
    ['a branched graph on 4 threads', branched],
    ['a ring', ring({ items: 2000, us: 2 }, 5)],
  ])('%s: the twin stays under the bound and within 10% of it', (_, spec) => {
    const bound = streamGraphBound(spec).throughputPerUs;
    const twin = twinPerUs(spec);
    expect(twin).toBeLessThanOrEqual(bound * 1.001);
    expect(twin).toBeGreaterThan(0.9 * bound);
  });

  test('the slowest task is named: the branch, and the sieve first filter', () => {
    expect(streamGraphBound(branched).slowestTask).toBe('slow');
    expect(streamGraphBound(sieve({ us: 5 }, 500)).slowestTask).toBe('filter(2)');
  });

  test('the sieve: the twin stays under the bound', () => {
    const spec = sieve({ us: 5, threads: 2 }, 400);
    expect(twinPerUs(spec)).toBeLessThanOrEqual(streamGraphBound(spec).throughputPerUs * 1.001);
  });

  test('batching divides only the synchronisation: it helps push/pop, hardly a 20 µs pipeline', () => {
    const gain = (spec: ReturnType<typeof avgPipeline>, batch: number) =>
      streamGraphBound({ ...spec, batch }).throughputPerUs / streamGraphBound(spec).throughputPerUs;
    expect(gain(splitJoin({ items: 100, us: 0 }, 1), 1024)).toBeGreaterThan(10);
    expect(gain(avgPipeline({ items: 100, us: 20 }), 1024)).toBeLessThan(1.02);
  });
});
