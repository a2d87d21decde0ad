// The page-side engine client against a scripted fake worker: one run in flight, later starts
// merged (latest wins), errors surfaced, counts read from the single-thread snapshots.
import { describe, expect, test } from 'vitest';
import { CountingEngine } from '../../../src/engine/countingEngine';
import { FakeWorker } from './fakeWorker';

const info = {
  threaded: false,
  hardwareConcurrency: 2,
  maxThreads: 64,
  iterationsPerUs: 100,
  memory: null,
  slotsAddress: 0,
};
const params = (threads: number) => ({ threads, padded: false, workUs: 0 });

function setup() {
  const worker = new FakeWorker();
  const engine = new CountingEngine({
    moduleUrl: 'x.js',
    threaded: false,
    poolSize: 2,
    createWorker: () => worker as unknown as Worker,
  });
  return { worker, engine };
}

describe('CountingEngine', () => {
  test('initialises the worker and becomes idle when it is ready', () => {
    const { worker, engine } = setup();
    expect(worker.sent[0]).toMatchObject({ type: 'init', moduleUrl: 'x.js', threaded: false });
    expect(engine.current.state).toBe('loading');
    worker.reply({ type: 'ready', info });
    expect(engine.current.state).toBe('idle');
  });

  test('a start while running stops first and starts only the latest request', () => {
    const { worker, engine } = setup();
    worker.reply({ type: 'ready', info });
    engine.start(params(1));
    engine.start(params(2));
    engine.start(params(3));
    expect(worker.sent.map((m) => m.type)).toEqual(['init', 'start', 'stop']);
    expect(engine.current.state).toBe('stopping');
    worker.reply({ type: 'stopped', poolWorkers: 0, stopMs: 1 });
    const starts = worker.sent.filter((m) => m.type === 'start');
    expect(starts).toHaveLength(2);
    expect(starts[1]).toEqual({ type: 'start', params: params(3) });
    expect(engine.current.state).toBe('running');
  });

  test('a start during loading runs once the engine is ready', () => {
    const { worker, engine } = setup();
    engine.start(params(2));
    expect(worker.sent.map((m) => m.type)).toEqual(['init']);
    worker.reply({ type: 'ready', info });
    expect(worker.sent.at(-1)).toEqual({ type: 'start', params: params(2) });
  });

  test('stop clears a pending start', () => {
    const { worker, engine } = setup();
    worker.reply({ type: 'ready', info });
    engine.start(params(1));
    engine.start(params(2));
    engine.stop();
    worker.reply({ type: 'stopped', poolWorkers: 0, stopMs: 1 });
    expect(worker.sent.filter((m) => m.type === 'start')).toHaveLength(1);
    expect(engine.current.state).toBe('idle');
  });

  test('counts come from the latest snapshot in single-thread mode', () => {
    const { worker, engine } = setup();
    worker.reply({ type: 'ready', info });
    engine.start(params(3));
    worker.reply({ type: 'started', params: params(3), strideBytes: 8 });
    worker.reply({ type: 'counts', counts: new Float64Array([5, 6, 7]) });
    const out = new Float64Array(3);
    expect(engine.readCounts(out)).toBe(3);
    expect(Array.from(out)).toEqual([5, 6, 7]);
  });

  test('an error from the worker is surfaced and the engine stays usable', () => {
    const { worker, engine } = setup();
    worker.reply({ type: 'ready', info });
    engine.start(params(99));
    worker.reply({ type: 'error', message: 'threads: 99 is out of range (allowed 1..64)' });
    expect(engine.current.state).toBe('idle');
    expect(engine.current.error).toMatch(/threads: 99/);
  });

  test('dispose terminates the worker', () => {
    const { worker, engine } = setup();
    engine.dispose();
    expect(worker.terminated).toBe(true);
  });
});
