// RaceEngine against a scripted fake engine worker: one plan at a time, a plan requested while
// another runs cancels it and starts once the old one is done (the latest wins), results reach
// only their plan's listener, layouts wait for the engine, a failure ends every plan, and dispose
// terminates the worker (which ends every pthread it started).
import { describe, expect, test } from 'vitest';
import type { FromEngine } from '../../../src/engine/protocol';
import { RaceEngine, type RaceListener } from '../../../src/engine/race/raceEngine';
import type { RaceResult } from '../../../src/spec/raceConfig';
import { FakeWorker, threadedReady } from '../engine/fakeWorker';

const ready = threadedReady(8);

const result = (itemsPerS: number) => ({ itemsPerS }) as RaceResult;

function recorder() {
  const log: string[] = [];
  const listener: RaceListener = {
    result: (i, r) => log.push(`result ${i} ${r.itemsPerS}`),
    done: ({ cancelled, error }) => log.push(`done ${cancelled} ${error}`),
  };
  return { log, listener };
}

function setup() {
  const worker = new FakeWorker();
  const engine = new RaceEngine('x.js', 2, () => worker as unknown as Worker);
  return { worker, engine };
}

describe('RaceEngine', () => {
  test('a plan waits for the engine, then runs; its results and end reach its listener', () => {
    const { worker, engine } = setup();
    const a = recorder();
    engine.run([{ queue: 'batch' }, { queue: 'mutex' }], a.listener);
    expect(worker.sent.map((m) => m.type)).toEqual(['init']);
    worker.reply(ready);
    const start = worker.last('race-start');
    expect(start.plan).toEqual([{ queue: 'batch' }, { queue: 'mutex' }]);
    worker.reply({ type: 'race-result', id: start.id, index: 0, result: result(5) });
    worker.reply({ type: 'race-result', id: start.id + 99, index: 1, result: result(7) });
    worker.reply({ type: 'race-done', id: start.id, cancelled: false, error: null });
    expect(a.log).toEqual(['result 0 5', 'done false null']);
  });

  test('a new plan cancels the running one and starts after its end; the latest wins', () => {
    const { worker, engine } = setup();
    worker.reply(ready);
    const a = recorder();
    const b = recorder();
    const c = recorder();
    engine.run([{ queue: 'batch' }], a.listener);
    const first = worker.last('race-start');
    engine.run([{ queue: 'lamport' }], b.listener);
    engine.run([{ queue: 'fastforward' }], c.listener);
    expect(worker.last('race-cancel').id).toBe(first.id);
    expect(b.log).toEqual(['done true null']); // replaced before it started
    // A result of the cancelled plan arriving late is dropped.
    worker.reply({ type: 'race-result', id: first.id, index: 0, result: result(1) });
    worker.reply({ type: 'race-done', id: first.id, cancelled: true, error: null });
    expect(a.log).toEqual(['done true null']);
    const next = worker.last('race-start');
    expect(next.plan).toEqual([{ queue: 'fastforward' }]);
    expect(worker.sent.filter((m) => m.type === 'race-start')).toHaveLength(2);
  });

  test('a cancelled running plan ends only when the engine says its threads are joined', () => {
    // Issue 43: the race panel says done when its plan ends; a cancel only asks the threads to
    // stop, and they may still move items until the worker's race-done.
    const { worker, engine } = setup();
    worker.reply(ready);
    const a = recorder();
    engine.run([{ queue: 'batch' }], a.listener).cancel();
    const start = worker.last('race-start');
    expect(worker.last('race-cancel').id).toBe(start.id);
    expect(a.log).toEqual([]);
    worker.reply({ type: 'race-done', id: start.id, cancelled: true, error: null });
    expect(a.log).toEqual(['done true null']);
  });

  test('cancel of a plan not started yet never sends it', () => {
    const { worker, engine } = setup();
    const a = recorder();
    engine.run([{ queue: 'batch' }], a.listener).cancel();
    worker.reply(ready);
    expect(worker.sent.map((m) => m.type)).toEqual(['init']);
    expect(a.log).toEqual(['done true null']);
  });

  test('a config the C++ rejected ends the plan with its message', () => {
    const { worker, engine } = setup();
    worker.reply(ready);
    const a = recorder();
    engine.run([{ queue: 'batch', semiItems: 12 }], a.listener);
    const id = worker.last('race-start').id;
    worker.reply({
      type: 'race-done',
      id,
      cancelled: false,
      error: 'semiItems: 12 is not a whole number',
    });
    expect(a.log).toEqual(['done false semiItems: 12 is not a whole number']);
  });

  test('layouts are asked once the engine is ready', async () => {
    const { worker, engine } = setup();
    const pending = engine.layouts();
    expect(worker.sent.map((m) => m.type)).toEqual(['init']);
    worker.reply(ready);
    expect(worker.last('queue-layouts')).toBeDefined();
    const layouts = { batch: { objectBytes: 256, lineBytes: 64, fields: [] } };
    worker.reply({ type: 'queue-layouts', layouts } as unknown as FromEngine);
    expect(await pending).toBe(layouts);
  });

  test('an engine that fails to load ends every plan with the reason; later plans too', () => {
    const { worker, engine } = setup();
    const a = recorder();
    engine.run([{ queue: 'batch' }], a.listener);
    worker.reply({ type: 'error', message: 'could not load the wasm engine: 404' });
    expect(a.log).toEqual(['done false could not load the wasm engine: 404']);
    const b = recorder();
    engine.run([{ queue: 'batch' }], b.listener);
    expect(b.log).toEqual(['done false could not load the wasm engine: 404']);
  });

  test('dispose terminates the worker and ends the plans in flight as cancelled', async () => {
    const { worker, engine } = setup();
    worker.reply(ready);
    const a = recorder();
    engine.run([{ queue: 'batch' }], a.listener);
    const layouts = engine.layouts();
    engine.dispose();
    expect(worker.terminated).toBe(true);
    expect(a.log).toEqual(['done true null']);
    await expect(layouts).rejects.toThrow('the race engine was closed');
  });
});
