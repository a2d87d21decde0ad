// The counting-threads experiment through the real wasm module under Node on real pthreads:
// counters rise in shared memory while running, stop ends every thread, restarts reuse the pool,
// and bad values come back as messages naming them.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { check, type PipelabModule } from '../../src/engine/wasmExports';
import { loadNodeModule, terminateThreads, waitFor } from './nodeModule';

let mod: PipelabModule;

beforeAll(async () => {
  mod = await loadNodeModule(2);
});
afterAll(() => terminateThreads(mod));
// A failed test must not leave its threads running into the next one.
afterEach(async () => {
  if (mod._pl_counting_alive() > 0) await stopAndJoin();
});

function readCounts(threads: number): number[] {
  const stride = mod._pl_counting_stride_bytes() / 8;
  const slots = new BigUint64Array(mod.HEAPU8.buffer, mod._pl_counting_slots(), 64 * 16);
  return Array.from({ length: threads }, (_, i) => Number(Atomics.load(slots, i * stride)));
}

async function stopAndJoin(): Promise<number> {
  mod._pl_counting_request_stop();
  const ms = await waitFor(() => mod._pl_counting_alive() === 0, 5000, 'threads to exit');
  mod._pl_counting_join();
  return ms;
}

describe('counting threads in wasm', () => {
  test('the module is the threaded build and reports the cores', () => {
    expect(mod._pl_threaded()).toBe(1);
    expect(mod._pl_hardware_concurrency()).toBeGreaterThanOrEqual(1);
    expect(mod.HEAPU8.buffer).toBeInstanceOf(SharedArrayBuffer);
  });

  for (const padded of [0, 1]) {
    test(`every thread counts (${padded ? 'padded' : 'packed'}), more threads than the pool`, async () => {
      const threads = 4; // pool of 2: two Workers must be created while the event loop turns
      check(mod, mod._pl_counting_start(threads, padded, 0));
      expect(mod._pl_counting_stride_bytes()).toBe(padded ? 128 : 8);
      await waitFor(() => readCounts(threads).every((c) => c > 0), 10_000, 'every thread to count');
      // Each thread keeps counting. Waited for, not timed: on a loaded 2-core machine a thread may
      // not get a core for a while, and a slow thread is not a broken one.
      const first = readCounts(threads);
      await waitFor(
        () => readCounts(threads).every((c, i) => c > first[i]),
        10_000,
        'every thread to count again',
      );
      const stopMs = await stopAndJoin();
      expect(stopMs).toBeLessThan(1000);
      const frozen = readCounts(threads);
      await new Promise((r) => setTimeout(r, 20));
      expect(readCounts(threads)).toEqual(frozen);
    });
  }

  test('twenty restarts keep the pthread pool at its size', async () => {
    const pool = (
      mod as unknown as { PThread: { unusedWorkers: unknown[]; runningWorkers: unknown[] } }
    ).PThread;
    const workers = () => pool.unusedWorkers.length + pool.runningWorkers.length;
    const before = workers();
    for (let round = 0; round < 20; round++) {
      check(mod, mod._pl_counting_start(4, round % 2, 0));
      await waitFor(() => readCounts(4).every((c) => c > 0), 10_000, `round ${round} to count`);
      await stopAndJoin();
    }
    expect(workers()).toBe(Math.max(before, 4));
  });

  test('a second start while running is refused with a message', async () => {
    check(mod, mod._pl_counting_start(1, 1, 0));
    expect(() => check(mod, mod._pl_counting_start(1, 1, 0))).toThrow(/a run is active/);
    await stopAndJoin();
  });

  test.each([0, -3, 65, 100000])('threads=%i is rejected naming the value and range', (bad) => {
    expect(() => check(mod, mod._pl_counting_start(bad, 0, 0))).toThrow(
      new RegExp(`threads: ${bad} is out of range \\(allowed 1\\.\\.64\\)`),
    );
    expect(mod._pl_counting_alive()).toBe(0);
  });

  test('single-thread slices count every virtual thread', () => {
    check(mod, mod._pl_counting_run_slice(3, 0, 0, 3000));
    expect(readCounts(3).every((c) => c > 0)).toBe(true);
  });
});
