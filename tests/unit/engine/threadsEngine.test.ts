// ThreadsRun's pause / resume / stop against a scripted fake engine worker: the state machine, the
// messages the page sends (and when: a pause before the threads exist waits for them), and the
// run clock, which stands still while paused and catches up with the C++ clock's acknowledgement.
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { FromEngine } from '../../../src/engine/protocol';
import { ThreadsEngine } from '../../../src/engine/pipeline/threadsEngine';
import type { ExperimentSpec } from '../../../src/spec/experimentSpec';
import { FakeWorker, threadedReady } from './fakeWorker';

const spec: ExperimentSpec = {
  runtime: 'static',
  stages: [{ name: 's', mode: 'serial-in-order', threads: 1, service: { kind: 'fixed', us: 1 } }],
  threads: 1,
  tokens: 1,
  queue: { kind: 'vyukov-mpmc', capacity: 4 },
  items: 100,
  seed: 1,
};

const ready = threadedReady(1024);
const started: FromEngine = {
  type: 'pipeline-started',
  layout: { workers: 1, ringOffsets: [512], countersOffset: 0, stages: 1, boardOffset: 0 },
};
const finished = (cancelled: boolean, error = ''): FromEngine => ({
  type: 'pipeline-finished',
  completed: cancelled ? 40 : 100,
  elapsedUs: cancelled ? 0 : 90_000,
  cancelled,
  output: cancelled ? null : { checksum: '00000000000000ff', bytes: 1800, batches: 1 },
  error,
});

let nowMs = 0;
beforeEach(() => {
  nowMs = 1000;
  vi.spyOn(performance, 'now').mockImplementation(() => nowMs);
});
afterEach(() => vi.restoreAllMocks());

function setup() {
  const worker = new FakeWorker();
  const engine = new ThreadsEngine('x.js', 2, () => worker as unknown as Worker);
  return { worker, engine };
}

function running() {
  const { worker, engine } = setup();
  worker.reply(ready);
  const run = engine.run(spec);
  worker.reply(started);
  return { worker, engine, run };
}

describe('ThreadsRun pause / resume', () => {
  test('pause and resume move between running and paused and tell the engine', () => {
    const { worker, run } = running();
    expect(run.state()).toBe('running');
    run.pause();
    expect(run.state()).toBe('paused');
    run.pause();
    run.resume();
    expect(run.state()).toBe('running');
    run.resume();
    expect(worker.types()).toEqual(['init', 'pipeline-start', 'pipeline-pause', 'pipeline-resume']);
  });

  test('the clock stands still while paused, catches up with the C++ clock, never goes back', () => {
    const { worker, run } = running();
    nowMs += 10;
    expect(run.nowUs()).toBeCloseTo(10_000);
    run.pause();
    nowMs += 40;
    expect(run.nowUs()).toBeCloseTo(10_000);
    // The threads finished their items for 2 ms after the request: the C++ clock stopped later.
    worker.reply({ type: 'pipeline-paused', nowUs: 12_000 });
    expect(run.nowUs()).toBe(12_000);
    worker.reply({ type: 'pipeline-paused', nowUs: 5_000 });
    expect(run.nowUs()).toBe(12_000);
    nowMs += 100;
    expect(run.nowUs()).toBe(12_000);
    run.resume();
    expect(run.nowUs()).toBeCloseTo(12_000);
    nowMs += 10;
    expect(run.nowUs()).toBeCloseTo(22_000);
    // A late acknowledgement (after resume) changes nothing.
    worker.reply({ type: 'pipeline-paused', nowUs: 50_000 });
    expect(run.nowUs()).toBeCloseTo(22_000);
  });

  test("the clock catches up with the events' C++ clock (it started before the page heard), never back", () => {
    const { run } = running();
    nowMs += 10;
    expect(run.nowUs()).toBeCloseTo(10_000);
    // The page heard of the run 40 ms after its C++ clock started: events read say 50 ms.
    run.seen!(50_000);
    expect(run.nowUs()).toBeCloseTo(50_000);
    nowMs += 5;
    expect(run.nowUs()).toBeCloseTo(55_000);
    run.seen!(20_000);
    expect(run.nowUs()).toBeCloseTo(55_000);
    // Paused: the frozen clock moves up to the events too, and on from there after resume.
    run.pause();
    run.seen!(57_000);
    expect(run.nowUs()).toBe(57_000);
    run.resume();
    nowMs += 1;
    expect(run.nowUs()).toBeCloseTo(58_000);
  });

  test('a pause before the engine started the run is sent once its threads exist', () => {
    const { worker, engine } = setup();
    const run = engine.run(spec);
    run.pause();
    expect(run.state()).toBe('paused');
    expect(run.nowUs()).toBe(0);
    worker.reply(ready);
    expect(worker.types()).toEqual(['init', 'pipeline-start']);
    worker.reply(started);
    expect(worker.types()).toEqual(['init', 'pipeline-start', 'pipeline-pause']);
    nowMs += 50;
    expect(run.nowUs()).toBe(0);
    run.resume();
    nowMs += 5;
    expect(run.nowUs()).toBeCloseTo(5_000);
    expect(worker.types().at(-1)).toBe('pipeline-resume');
  });

  test('stop while paused cancels the run and keeps the paused clock', () => {
    const { worker, run } = running();
    nowMs += 20;
    run.pause();
    run.stop();
    expect(run.state()).toBe('stopped');
    expect(worker.types().at(-1)).toBe('pipeline-cancel');
    nowMs += 100;
    worker.reply(finished(true));
    expect(run.state()).toBe('stopped');
    expect(run.output()).toBeNull();
    expect(run.nowUs()).toBeCloseTo(20_000);
    run.resume();
    expect(run.state()).toBe('stopped');
  });

  test('a run that finishes while pausing is done', () => {
    const { worker, run } = running();
    run.pause();
    worker.reply(finished(false));
    expect(run.state()).toBe('done');
    expect(run.nowUs()).toBe(90_000);
    // What the C++ runtime produced reaches the page with the finish.
    expect(run.output()).toEqual({ checksum: '00000000000000ff', bytes: 1800, batches: 1 });
    run.pause();
    expect(run.state()).toBe('done');
    expect(worker.types()).toEqual(['init', 'pipeline-start', 'pipeline-pause']);
  });

  test('a new run replaces a paused one: the old one is cancelled first', () => {
    const { worker, engine, run } = running();
    run.pause();
    const next = engine.run(spec);
    expect(run.state()).toBe('stopped');
    expect(worker.types().at(-1)).toBe('pipeline-cancel');
    worker.reply(finished(true));
    expect(worker.types().at(-1)).toBe('pipeline-start');
    expect(next.state()).toBe('running');
  });
});

describe('ThreadsRun that stops early', () => {
  test('a run the engine stopped (a stalled phaser graph) is an error with the reason', () => {
    const { worker, engine, run } = running();
    const why =
      'stalled: no task can run, 2 tasks wait forever (a waits for phase 0 of streams[1])';
    worker.reply(finished(true, why));
    expect(run.state()).toBe('error');
    expect(run.error()).toBe(why);
    // The engine is free for the next run.
    const next = engine.run(spec);
    expect(worker.types().at(-1)).toBe('pipeline-start');
    expect(next.state()).toBe('running');
  });
});

test("a finished run counts what the runtime counted (a phaser ring's items leave at every hop, not only the last stage)", () => {
  const { worker, run } = running();
  // Live, the count is the last stage's items out (zero in this fake memory).
  expect(run.summary().completed).toBe(0);
  worker.reply(finished(false));
  expect(run.summary().completed).toBe(100);
  expect(run.summary().itemsPerSec).toBeCloseTo((100 / 90_000) * 1e6);
});

describe('ThreadsRun starting', () => {
  test('starting until the engine has started the run: through the module load and thread creation', () => {
    const { worker, engine } = setup();
    const run = engine.run(spec);
    expect(run.starting()).toBe(true); // the module is still loading
    worker.reply(ready);
    expect(run.starting()).toBe(true); // asked to start, its threads not there yet
    run.pause();
    expect(run.starting()).toBe(true); // a pause before the threads exist still waits for them
    run.resume();
    worker.reply(started);
    expect(run.starting()).toBe(false);
  });

  test('a run stopped, failed or finished before it started is not starting', () => {
    const { worker, engine } = setup();
    const stopped = engine.run(spec);
    stopped.stop();
    expect(stopped.starting()).toBe(false);
    const failed = engine.run(spec);
    worker.reply({ type: 'error', message: 'no module' });
    expect(failed.starting()).toBe(false);
  });
});
