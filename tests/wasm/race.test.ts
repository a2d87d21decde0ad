// The queue race through the real wasm module under Node on real pthreads, driven as the engine
// worker drives it (src/engine/race/wasmRace.ts): every queue delivers every item in order, a
// chain longer than the pool grows it, the latency probe ends on a flushed partial semi-buffer,
// cancel ends the threads, bad configs come back named; the TypeScript names, defaults and ranges
// (raceConfig.ts) are the C++ ones; the layouts are the real offsets (padded apart, unpadded on
// one line); and a static BatchQueue pipeline's batch-* telemetry replays into a consistent
// cache-line state.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import {
  RACE_DEFAULTS,
  RACE_LIMITS,
  RACE_QUEUES,
  RACE_VARIANTS,
  type QueueLayout,
  type RaceConfig,
  type RaceResult,
} from '../../src/spec/raceConfig';
import {
  queueLayout,
  requestRaceCancel,
  startWasmRace,
  whenRaceFinished,
} from '../../src/engine/race/wasmRace';
import {
  startWasmPipeline,
  wasmTap,
  whenPipelineFinished,
} from '../../src/engine/pipeline/wasmPipeline';
import type { PipelabModule } from '../../src/engine/wasmExports';
import { BatchQueueTracker, firstBatchLink } from '../../src/live/batchQueueState';
import { parseExperimentSpec } from '../../src/spec/experimentSpec';
import { readTap } from '../../src/telemetry';
import { loadNodeModule, terminateThreads, waitFor } from './nodeModule';

let mod: PipelabModule;

beforeAll(async () => {
  mod = await loadNodeModule(2);
});
afterAll(() => terminateThreads(mod));
afterEach(async () => {
  if (mod._pl_race_alive() > 0) {
    requestRaceCancel(mod);
    await whenRaceFinished(mod);
  }
});

async function race(config: RaceConfig): Promise<RaceResult> {
  startWasmRace(mod, config);
  return whenRaceFinished(mod);
}

function expectAllDelivered(r: RaceResult) {
  const what = `${r.config.queue} ${r.config.variant} stages=${r.config.stages}`;
  expect(r.cancelled, what).toBe(false);
  expect(r.made, what).toBeGreaterThan(0);
  expect(r.received, what).toBe(r.made);
  expect(r.outOfOrder, what).toBe(0);
  expect(r.itemsPerS, what).toBeGreaterThan(0);
}

describe('the queue race in wasm', () => {
  test('every queue delivers every item once, in order (comm, 2 threads)', async () => {
    for (const queue of RACE_QUEUES) expectAllDelivered(await race({ queue, durationMs: 20 }));
  });

  test('matrix and work variants; a chain of 4 on a pool of 2 grows the pool', async () => {
    expectAllDelivered(
      await race({ queue: 'batch', variant: 'matrix', matrixSize: 16, durationMs: 20 }),
    );
    expectAllDelivered(
      await race({ queue: 'fastforward', variant: 'work', workUs: 2, durationMs: 20 }),
    );
    expectAllDelivered(await race({ queue: 'vyukov-mpmc', stages: 4, durationMs: 20 }));
    expectAllDelivered(await race({ queue: 'batch', stages: 1, durationMs: 20 }));
  });

  test('the latency probe: every item stamped, the last partial semi-buffer flushed', async () => {
    const r = await race({ queue: 'batch', semiItems: 64, offeredPerS: 200_000, durationMs: 20 });
    expectAllDelivered(r);
    expect(r.latencySamples).toBe(r.made);
    expect(r.tailItems).toBe(33);
    expect(r.made % 64).toBe(33);
    expect(r.latencyP99Ns).toBeGreaterThanOrEqual(r.latencyMedianNs);
  });

  test('cancel ends every thread of a long run', async () => {
    startWasmRace(mod, { queue: 'mutex', stages: 4, durationMs: 10_000 });
    await waitFor(() => mod._pl_race_alive() === 4, 10_000, 'the threads to start');
    requestRaceCancel(mod);
    const r = await whenRaceFinished(mod);
    expect(r.cancelled).toBe(true);
    expect(mod._pl_race_alive()).toBe(0);
  });

  test.each([
    [{ queue: 'ring' }, 'queue: "ring" is not one of batch | batch-unpadded | lamport'],
    [
      { queue: 'batch', semiItems: 12 },
      'semiItems: 12 is not a whole number of 64-byte cache lines',
    ],
    [{ queue: 'batch', matrixSize: 65 }, 'matrixSize: 65 is out of range (allowed 2..64)'],
  ])('%j is refused naming the value', (config, message) => {
    expect(() => startWasmRace(mod, config as RaceConfig)).toThrow(message);
    expect(mod._pl_race_alive()).toBe(0);
  });

  test('the TypeScript names, defaults and ranges are the C++ ones', async () => {
    const r = await race({ queue: 'batch', durationMs: 10 });
    expect(r.config).toEqual({ queue: 'batch', ...RACE_DEFAULTS, durationMs: 10 });
    for (const variant of RACE_VARIANTS) {
      startWasmRace(mod, { queue: 'batch', variant, durationMs: 10 });
      expect((await whenRaceFinished(mod)).config.variant).toBe(variant);
    }
    for (const [field, [lo, hi]] of Object.entries(RACE_LIMITS)) {
      for (const bad of [lo - 1, hi + (field === 'semiItems' ? 8 : 1)]) {
        const config = { queue: 'batch', [field]: bad } as RaceConfig;
        expect(() => startWasmRace(mod, config), `${field} ${bad}`).toThrow(
          `${field}: ${bad} is out of range (allowed ${lo}..${hi})`,
        );
      }
    }
  });

  test('layouts are the real offsets: padded writers on lines of their own, unpadded sharing', () => {
    const linesOf = (f: QueueLayout['fields'][number]) => {
      const out: number[] = [];
      for (let l = Math.floor(f.offset / 64); l * 64 < f.offset + f.bytes; l++) out.push(l);
      return out;
    };
    const field = (l: QueueLayout, name: string) => l.fields.find((f) => f.name.startsWith(name))!;
    const share = (l: QueueLayout, a: string, b: string) =>
      linesOf(field(l, a)).some((x) => linesOf(field(l, b)).includes(x));
    const batch = queueLayout(mod, 'batch');
    expect(share(batch, 'producer state', 'consumer state')).toBe(false);
    expect(share(batch, 'producer state', 'status')).toBe(false);
    expect(share(batch, 'consumer state', 'status')).toBe(false);
    expect(share(batch, 'status', 'published item count')).toBe(true); // by design: the count
    const unpadded = queueLayout(mod, 'batch-unpadded');
    expect(share(unpadded, 'producer state', 'consumer state')).toBe(true);
    expect(share(unpadded, 'consumer state', 'status')).toBe(true);
    expect(Math.max(...unpadded.fields.flatMap(linesOf))).toBeLessThanOrEqual(1);
    expect(share(queueLayout(mod, 'lamport'), 'tail', 'head')).toBe(false);
    expect(share(queueLayout(mod, 'lamport-unpadded'), 'tail', 'head')).toBe(true);
    expect(() => queueLayout(mod, 'mutex' as never)).toThrow(
      'queue: "mutex" is not one of batch | batch-unpadded | lamport | lamport-unpadded',
    );
  });
});

describe('BatchQueue indices from a static pipeline', () => {
  test('replay into a consistent cache-line state; the end of stream is a flush', async () => {
    const spec = parseExperimentSpec({
      runtime: 'static',
      stages: [
        { name: 'produce', mode: 'serial-in-order', service: { kind: 'fixed', us: 2 } },
        { name: 'consume', mode: 'serial-in-order', service: { kind: 'fixed', us: 2 } },
      ],
      queue: { kind: 'batch', capacity: 16 },
      items: 203,
      seed: 1,
    });
    const link = firstBatchLink(spec)!;
    expect(link).toEqual({ semiItems: 8, itemBytes: 16 });
    const tracker = new BatchQueueTracker(link.semiItems, link.itemBytes);
    const tap = wasmTap(mod.HEAPU8.buffer, startWasmPipeline(mod, spec));
    const finished = whenPipelineFinished(mod);
    let done = false;
    void finished.then(() => (done = true));
    while (!done) {
      tracker.advance(readTap(tap).events);
      await new Promise((r) => setTimeout(r, 1));
    }
    tracker.advance(readTap(tap).events);
    const s = tracker.snapshot();
    expect(s.itemsWritten).toBe(203);
    expect(s.itemsRead).toBe(203);
    expect(s.flushes).toBeGreaterThanOrEqual(1); // 203 = 25 semi-buffers of 8, and 3 flushed
    expect(s.publishes).toBe(s.releases);
    expect(s.flips).toBe(2 * s.publishes);
    expect(s.status).toBe(false);
    expect(s.linesPerSemi).toBe(2);
    // Every semi-buffer hands its data lines and `status` over; packing the state can only add
    // hand-overs (how many depends on how the two threads interleaved: tests/unit/live).
    expect(s.handoffsPerItem.padded).toBeGreaterThan(0);
    expect(s.handoffsPerItem.unpadded).toBeGreaterThanOrEqual(s.handoffsPerItem.padded);
  });
});
