// ThreadsRun's pause / resume / stop against a scripted fake engine worker: the state machine, the
// messages the page sends (and when: a pause before the threads exist waits for them), the run
// clock, which stands still while paused and catches up with the C++ clock's acknowledgement, and
// a stop that ends the run only once its threads are joined, its last state kept from then on.
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { FromEngine } from '../../../src/engine/protocol';
import { inFlight } from '../../../src/engine/pipeline/pipelineRun';
import { ThreadsEngine, type ThreadsRun } from '../../../src/engine/pipeline/threadsEngine';
import {
  emptyStageCounters,
  encodeStageCounters,
  readTap,
  RingWriter,
} from '../../../src/telemetry';
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
    // Its parked threads still have to wake, see the cancel and exit.
    expect(run.state()).toBe('stopping');
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
    expect(run.state()).toBe('stopping');
    expect(worker.types().at(-1)).toBe('pipeline-cancel');
    worker.reply(finished(true));
    expect(run.state()).toBe('stopped');
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

// "Done" means final (issue 43): a stopped run read as ended 0-12 ms before its threads were
// joined, and its last frame was sampled while they still moved items.
describe('ThreadsRun stops only when its threads are joined', () => {
  /** A threads run whose telemetry the test writes where the C++ workers would: one stage's
   * counter line at 0, worker 0's ring at 512 (as `started` lays it out). */
  function withTelemetry() {
    const r = running();
    const memory = (ready as Extract<FromEngine, { type: 'ready' }>).info.memory!;
    const ring = new RingWriter(16, 0, memory, 512);
    const out = (itemsOut: number) =>
      encodeStageCounters([{ ...emptyStageCounters(), itemsOut }], memory, 0);
    return { ...r, memory, ring, out };
  }
  const itemsOutOf = (run: ThreadsRun) => readTap(run.tap()!).counters[0].itemsOut;

  test('stop: stopping (still in flight) until the engine reports every thread joined', () => {
    const { worker, run, out } = withTelemetry();
    out(3);
    run.stop();
    expect(run.state()).toBe('stopping');
    expect(inFlight(run.state())).toBe(true);
    expect(worker.types().at(-1)).toBe('pipeline-cancel');
    // Pause and resume mean nothing to a stopping run.
    run.pause();
    run.resume();
    expect(run.state()).toBe('stopping');
    // The threads finish the items in hand: the page still reads them.
    out(5);
    expect(run.summary().completed).toBe(5);
    worker.reply(finished(true));
    expect(run.state()).toBe('stopped');
    expect(inFlight(run.state())).toBe(false);
  });

  test("an ended run's last state is its own: the next run writing the same memory changes nothing", () => {
    const { worker, engine, run, ring, out } = withTelemetry();
    out(7);
    ring.push({ kind: 'end', worker: 0, stage: 0, item: 6, timeUs: 70, arg: 0 });
    run.stop();
    const next = engine.run(spec);
    worker.reply(finished(true));
    // The engine started the next run at once, in the same wasm memory.
    expect(worker.types().at(-1)).toBe('pipeline-start');
    out(0);
    ring.push({ kind: 'start', worker: 0, stage: 0, item: 0, timeUs: 1, arg: 0 });
    const last = readTap(run.tap()!);
    expect(last.counters[0].itemsOut).toBe(7);
    expect(last.events.map((e) => e.item)).toEqual([6]);
    expect(run.summary()).toMatchObject({ completed: 40 });
    expect(next.state()).toBe('running');
  });

  test('a run still waiting its turn stops at once and is never started', () => {
    const { worker, engine, run } = running();
    const queued = engine.run(spec);
    expect(run.state()).toBe('stopping');
    queued.stop();
    expect(queued.state()).toBe('stopped');
    worker.reply(finished(true));
    expect(worker.types().filter((t) => t === 'pipeline-start')).toHaveLength(1);
  });

  test('stopped before its threads exist: stopping, the cancel sent once they do', () => {
    const { worker, engine } = setup();
    worker.reply(ready);
    const run = engine.run(spec);
    run.stop();
    expect(run.state()).toBe('stopping');
    expect(worker.types()).toEqual(['init', 'pipeline-start']);
    worker.reply(started);
    expect(worker.types().at(-1)).toBe('pipeline-cancel');
    worker.reply(finished(true));
    expect(run.state()).toBe('stopped');
  });

  test("a stalled run's error comes when its threads are joined, with its last counts kept", () => {
    const { worker, run, out } = withTelemetry();
    out(4);
    worker.reply(finished(true, 'stalled: no task can run'));
    out(0);
    expect(run.state()).toBe('error');
    expect(itemsOutOf(run)).toBe(4);
    expect(run.summary().completed).toBe(4);
  });

  test('property: ended only once no thread of it exists; an ended run never changes', () => {
    const action = fc.constantFrom(
      'run',
      'pause',
      'resume',
      'stop',
      'work',
      'deliver',
      'complete',
      'tick',
    );
    fc.assert(
      fc.property(fc.array(action, { maxLength: 40 }), (actions) => {
        const { worker, engine } = setup();
        worker.reply(ready);
        const memory = (ready as Extract<FromEngine, { type: 'ready' }>).info.memory!;
        // The engine worker: one run's threads at a time, from 'pipeline-start' until it replies
        // 'pipeline-finished' (after a cancel, or when the items are all out).
        let threads: { seed: number; started: boolean; cancel: boolean; out: number } | null = null;
        let seen = 0;
        const runs: ThreadsRun[] = [];
        const endedAs = new Map<ThreadsRun, string>();
        const shown = (r: ThreadsRun) =>
          JSON.stringify([
            r.state(),
            r.summary(),
            r.nowUs(),
            r.tap() && readTap(r.tap()!).counters,
          ]);
        for (const a of actions) {
          const last = runs.at(-1);
          if (a === 'run') runs.push(engine.run({ ...spec, seed: runs.length + 1 }));
          else if (a === 'pause') last?.pause();
          else if (a === 'resume') last?.resume();
          else if (a === 'stop') last?.stop();
          else if (a === 'tick') nowMs += 7;
          else if (a === 'work' && threads?.started)
            encodeStageCounters([{ ...emptyStageCounters(), itemsOut: ++threads.out }], memory, 0);
          else if (a === 'deliver' && threads && !threads.started) {
            threads.started = true;
            worker.reply(started);
          } else if ((a === 'deliver' && threads?.cancel) || (a === 'complete' && threads)) {
            const { cancel, out } = threads;
            threads = null;
            worker.reply({
              type: 'pipeline-finished',
              completed: out,
              elapsedUs: 0,
              cancelled: cancel,
              output: null,
              error: '',
            });
          }
          for (const m of worker.sent.slice(seen)) {
            if (m.type === 'pipeline-start') {
              encodeStageCounters([emptyStageCounters()], memory, 0);
              threads = { seed: m.spec.seed, started: false, cancel: false, out: 0 };
            } else if (m.type === 'pipeline-cancel' && threads) threads.cancel = true;
          }
          seen = worker.sent.length;
          for (const r of runs) {
            if (threads?.seed === r.spec.seed) expect(inFlight(r.state())).toBe(true);
            if (inFlight(r.state())) continue;
            if (!endedAs.has(r)) endedAs.set(r, shown(r));
            expect(shown(r)).toBe(endedAs.get(r));
          }
        }
      }),
    );
  });
});
