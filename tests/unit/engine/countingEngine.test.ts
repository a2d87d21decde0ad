// The page-side engine client against a scripted fake worker: one run in flight, later starts
// merged (latest wins), errors surfaced, counts read from the single-thread snapshots, and a run
// over only once the worker has joined its threads, its counts then the ones read after that.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { CountingEngine, panelState } from '../../../src/engine/countingEngine';
import { COUNTING_SLOT_WORDS, type FromEngine } from '../../../src/engine/protocol';
import { FakeWorker, threadedReady } from './fakeWorker';

const info = {
  threaded: false,
  hardwareConcurrency: 2,
  maxThreads: 64,
  iterationsPerUs: 100,
  memory: null,
  slotsAddress: 0,
};
const params = (threads: number) => ({ threads, padded: false, workUs: 0 });

function setup(threaded = false) {
  const worker = new FakeWorker();
  const engine = new CountingEngine({
    moduleUrl: 'x.js',
    threaded,
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
    worker.reply({ type: 'stopped', poolWorkers: 0, stopMs: 1, counts: new Float64Array(1) });
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
    worker.reply({ type: 'stopped', poolWorkers: 0, stopMs: 1, counts: new Float64Array(1) });
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

// "Done" means final (issue 43): on 2 loaded cores the page said done while the threads still
// counted for 2-21 ms, and drew counts it had sampled before they stopped.
describe('CountingEngine: a run is over only when its threads are joined, with their last counts', () => {
  /** A threaded engine whose counting slots (packed, 8 bytes apart) are the test's to write. */
  function threaded() {
    const { worker, engine } = setup(true);
    const ready = threadedReady(COUNTING_SLOT_WORDS * 8);
    worker.reply(ready);
    const memory = (ready as Extract<FromEngine, { type: 'ready' }>).info.memory!;
    const slots = new BigUint64Array(memory, 0, COUNTING_SLOT_WORDS);
    const start = (threads: number) => {
      engine.start(params(threads));
      worker.reply({ type: 'started', params: params(threads), strideBytes: 8 });
    };
    const read = (threads: number) => {
      const out = new Float64Array(threads);
      engine.readCounts(out);
      return Array.from(out);
    };
    return { worker, engine, slots, start, read };
  }

  test('stopping until the worker says stopped; then the counts it read after the joins', () => {
    const { worker, engine, slots, start, read } = threaded();
    start(2);
    slots[0] = 10n;
    slots[1] = 20n;
    engine.stop();
    expect(engine.current.state).toBe('stopping');
    expect(engine.current.ended).toBeNull();
    // The threads have not all seen the stop: they still count, and the page still reads them.
    slots[0] = 15n;
    expect(read(2)).toEqual([15, 20]);
    worker.reply({
      type: 'stopped',
      poolWorkers: 2,
      stopMs: 3,
      counts: new Float64Array([17, 21]),
    });
    expect(engine.current.state).toBe('idle');
    expect(Array.from(engine.current.ended!)).toEqual([17, 21]);
    expect(read(2)).toEqual([17, 21]);
    // Whatever the slots hold later (the next run resets them), the ended run's counts stay.
    slots[0] = 0n;
    slots[1] = 999n;
    expect(read(2)).toEqual([17, 21]);
  });

  test('a new run clears the ended counts and reads its own threads again', () => {
    const { worker, engine, slots, start, read } = threaded();
    start(1);
    engine.stop();
    worker.reply({ type: 'stopped', poolWorkers: 1, stopMs: 1, counts: new Float64Array([5]) });
    start(1);
    expect(engine.current.ended).toBeNull();
    slots[0] = 7n;
    expect(read(1)).toEqual([7]);
  });

  test('a restart while running passes through stopping: the old run ends with its own counts', () => {
    const { worker, engine, start } = threaded();
    start(2);
    engine.start(params(3));
    expect(engine.current.state).toBe('stopping');
    expect(worker.types().filter((t) => t === 'start')).toHaveLength(1);
    const states: string[] = [];
    engine.subscribe((s) => states.push(`${s.state}${s.ended ? ` ${Array.from(s.ended)}` : ''}`));
    worker.reply({ type: 'stopped', poolWorkers: 2, stopMs: 1, counts: new Float64Array([1, 2]) });
    // The ended run's counts were published before the next run started and cleared them.
    expect(states).toEqual(['idle 1,2', 'running']);
  });

  test('the panel: running while loading with a start pending and while stopping, done after', () => {
    expect(panelState({ state: 'loading' }, false)).toBe('idle');
    expect(panelState({ state: 'loading' }, true)).toBe('running');
    expect(panelState({ state: 'idle' }, false)).toBe('idle');
    expect(panelState({ state: 'running' }, true)).toBe('running');
    expect(panelState({ state: 'stopping' }, true)).toBe('running');
    expect(panelState({ state: 'idle' }, true)).toBe('done');
    expect(panelState({ state: 'error' }, true)).toBe('error');
  });

  test('property: done only after the joins, and a done run never changes its counts', () => {
    // Commands from the page and replies from the worker in any order the protocol allows.
    const action = fc.oneof(
      fc.record({ kind: fc.constant('start' as const), threads: fc.integer({ min: 1, max: 4 }) }),
      fc.constant({ kind: 'stop' as const }),
      fc.constant({ kind: 'count' as const }),
      fc.constant({ kind: 'deliver' as const }),
    );
    fc.assert(
      fc.property(fc.array(action, { maxLength: 40 }), (actions) => {
        const { worker, engine, slots } = threaded();
        // The worker as the engine worker behaves: threads exist from 'start' until it replies
        // 'stopped', which it does only after a 'stop'.
        let threads = 0;
        let stopAsked = false;
        let seen = 0;
        let ended: number[] | null = null;
        let requested = false;
        for (const a of actions) {
          if (a.kind === 'start') {
            engine.start(params(a.threads));
            requested = true;
          } else if (a.kind === 'stop') engine.stop();
          else if (a.kind === 'count') for (let i = 0; i < threads; i++) slots[i] += 1n;
          else if (threads > 0 && stopAsked) {
            const counts = Float64Array.from({ length: threads }, (_, i) => Number(slots[i]));
            threads = 0;
            stopAsked = false;
            worker.reply({ type: 'stopped', poolWorkers: 4, stopMs: 1, counts });
          }
          for (const m of worker.sent.slice(seen)) {
            if (m.type === 'start') {
              slots.fill(0n);
              threads = m.params.threads;
              worker.reply({ type: 'started', params: m.params, strideBytes: 8 });
            } else if (m.type === 'stop') stopAsked = true;
          }
          seen = worker.sent.length;
          const { state, params: p } = engine.current;
          const panel = panelState({ state }, requested);
          if (threads > 0) expect(['running', 'stopping']).toContain(state);
          if (threads > 0) expect(panel).toBe('running');
          if (panel === 'done' && p) {
            const out = new Float64Array(p.threads);
            engine.readCounts(out);
            ended ??= Array.from(out);
            expect(Array.from(out)).toEqual(ended);
          } else ended = null;
        }
      }),
    );
  });
});
