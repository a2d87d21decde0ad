// The sweep plan: threads where allowed, at most eight measured points spread over the range,
// simulation for the rest; a simulated point carries its spread over repeats.
import { expect, test } from 'vitest';
import {
  MAX_MEASURED_POINTS,
  planSweep,
  setsThreadCount,
  simulatePoint,
} from '../../../src/engine/sweep';
import { parseExperimentSpec } from '../../../src/spec/experimentSpec';

const spec = (threads: number) =>
  parseExperimentSpec({
    runtime: 'work-stealing',
    stages: [
      { name: 'a', mode: 'parallel', threads: 1, service: { kind: 'exponential', meanUs: 50 } },
    ],
    threads,
    items: 200,
    seed: 1,
  });

test('at most eight measured points, evenly spread, ends included', () => {
  const xs = Array.from({ length: 32 }, (_, i) => i + 1);
  const jobs = planSweep(xs, spec, (s) => (s.threads <= 20 ? 'threads' : 'simulation'));
  const measured = jobs.filter((j) => j.engine === 'threads').map((j) => j.x);
  expect(measured).toHaveLength(MAX_MEASURED_POINTS);
  expect(measured[0]).toBe(1);
  expect(measured.at(-1)).toBe(20);
  expect(jobs.filter((j) => j.x > 20).every((j) => j.engine === 'simulation')).toBe(true);
});

test('few eligible values are all measured', () => {
  const jobs = planSweep([1, 2, 3], spec, () => 'threads');
  expect(jobs.map((j) => j.engine)).toEqual(['threads', 'threads', 'threads']);
});

test('a thread-count sweep measures x up to the cores and simulates beyond', () => {
  const jobs = planSweep([1, 2, 3, 4, 5], spec, () => 'threads', 2);
  expect(jobs.map((j) => j.engine)).toEqual([
    'threads',
    'threads',
    'simulation',
    'simulation',
    'simulation',
  ]);
  expect(setsThreadCount(['stages[1].threads'])).toBe(true);
  expect(setsThreadCount(['threads'])).toBe(true);
  expect(setsThreadCount(['tokens'])).toBe(false);
  expect(setsThreadCount(['stages[1].service.meanUs'])).toBe(false);
});

test('a simulated point is the median of its repeats with min and max', () => {
  const p = simulatePoint(spec(2), 2);
  expect(p.source).toBe('simulation');
  expect(p.min!).toBeLessThanOrEqual(p.y);
  expect(p.max!).toBeGreaterThanOrEqual(p.y);
  expect(p.max!).toBeGreaterThan(p.min!);
});
