// The cache-line view's state from a BatchQueue link's index moves: slots written and read per
// semi-buffer, publish / release flip `status`, positions, a flush's partial semi-buffer, and the
// hand-over counts — the same for both layouts when the threads take turns by semi-buffer, and
// far more for the unpadded layout when they work at the same time.
import { describe, expect, test } from 'vitest';
import { BatchQueueTracker, firstBatchLink } from '../../../src/live/batchQueueState';
import { encodeBatchArg, type EventKindName, type TelemetryEvent } from '../../../src/telemetry';
import { parseExperimentSpec } from '../../../src/spec/experimentSpec';

let t = 0;
const ev = (kind: EventKindName, half: 0 | 1, count: number, flush = false): TelemetryEvent => ({
  timeUs: t++,
  item: 0,
  arg: encodeBatchArg({ half, count, flush }),
  worker: kind === 'batch-write' || kind === 'batch-publish' ? 0 : 1,
  stage: 0,
  kind,
  seq: 0,
});
const writes = (half: 0 | 1, from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => ev('batch-write', half, from + i));
const reads = (half: 0 | 1, from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => ev('batch-read', half, from + i));

describe('BatchQueueTracker', () => {
  test('a semi-buffer written, published, read and released', () => {
    const q = new BatchQueueTracker(8, 16); // 4 items per line: 2 lines per semi-buffer
    q.advance(writes(0, 0, 5));
    let s = q.snapshot();
    expect(s.linesPerSemi).toBe(2);
    expect(s.producer).toEqual({ half: 0, next: 5 });
    expect(s.halves[0]).toMatchObject({ written: 5, published: null });
    expect(s.lineWriter[0]).toEqual(['producer', 'producer']);
    expect(s.status).toBe(false);
    q.advance([...writes(0, 5, 8), ev('batch-publish', 0, 8)]);
    s = q.snapshot();
    expect(s.status).toBe(true);
    expect(s.statusWriter).toBe('producer');
    expect(s.producer).toEqual({ half: 1, next: 0 });
    expect(s.halves[0].published).toBe(8);
    q.advance(reads(0, 0, 3));
    s = q.snapshot();
    expect(s.consumer).toEqual({ half: 0, next: 3, holding: true });
    expect(s.lineHolder[0]).toEqual(['consumer', 'producer']);
    q.advance([...reads(0, 3, 8), ev('batch-release', 0, 8)]);
    s = q.snapshot();
    expect(s.status).toBe(false);
    expect(s.statusWriter).toBe('consumer');
    expect(s.halves[0]).toEqual({ written: 0, read: 0, published: null, flushed: false });
    expect(s.consumer).toEqual({ half: 1, next: 0, holding: false });
    expect(s).toMatchObject({ itemsWritten: 8, itemsRead: 8, publishes: 1, releases: 1, flips: 2 });
  });

  test('a flush publishes a partial semi-buffer and is counted', () => {
    const q = new BatchQueueTracker(8, 16);
    q.advance([
      ...writes(0, 0, 3),
      ev('batch-publish', 0, 3, true),
      ...reads(0, 0, 3),
      ev('batch-release', 0, 3),
    ]);
    const s = q.snapshot();
    expect(s.flushes).toBe(1);
    expect(s.publishes).toBe(1);
    expect(s.itemsRead).toBe(3);
  });

  test('taking turns by semi-buffer: both layouts hand the same lines over', () => {
    const q = new BatchQueueTracker(8, 16);
    for (let round = 0; round < 4; round++) {
      const h = (round % 2) as 0 | 1;
      q.advance([
        ...writes(h, 0, 8),
        ev('batch-publish', h, 8),
        ...reads(h, 0, 8),
        ev('batch-release', h, 8),
      ]);
    }
    const s = q.snapshot();
    expect(s.handoffsPerItem.unpadded).toBe(s.handoffsPerItem.padded);
    expect(s.handoffsPerItem.padded).toBeGreaterThan(0);
  });

  test('working at the same time: the unpadded layout hands its state line over every item', () => {
    const q = new BatchQueueTracker(8, 16);
    q.advance([...writes(0, 0, 8), ev('batch-publish', 0, 8)]);
    // The producer fills semi-buffer 1 while the consumer reads semi-buffer 0, item by item.
    for (let k = 0; k < 8; k++) q.advance([ev('batch-write', 1, k), ev('batch-read', 0, k)]);
    const s = q.snapshot();
    // Padded: the consumer fetches the 2 lines of semi-buffer 0 and `status` once: 3 per 8 items.
    expect(s.handoffsPerItem.padded).toBeCloseTo(3 / 8);
    // Unpadded: the one state line also moves at every write and read after the first.
    expect(s.handoffsPerItem.unpadded).toBeCloseTo((2 + 15) / 8);
  });
});

describe('BatchQueueTracker in causal order, whatever the stamps', () => {
  // What a loaded run recorded: the producer was preempted between its flush and its clock read,
  // so the consumer's moves on that semi-buffer carry earlier times than the publish they need.
  test('moves that need a publish stamped after them wait for it', () => {
    const inOrder = new BatchQueueTracker(8, 16);
    inOrder.advance([
      ...writes(0, 0, 3),
      ev('batch-publish', 0, 3, true),
      ...reads(0, 0, 3),
      ev('batch-release', 0, 3),
    ]);
    const q = new BatchQueueTracker(8, 16);
    q.advance([...writes(0, 0, 3), ...reads(0, 0, 3), ev('batch-release', 0, 3)]);
    let s = q.snapshot();
    expect(s.itemsRead).toBe(0); // waiting: nothing was published yet as far as the view knows
    expect(s.status).toBe(false);
    q.advance([ev('batch-publish', 0, 3, true)]);
    s = q.snapshot();
    expect(s.status).toBe(false);
    expect(s.statusWriter).toBe('consumer');
    expect(s).toEqual(inOrder.snapshot()); // hand-over counts too: the moves went in causal order
  });

  test('a publish stamped before the release it needs waits for it', () => {
    const q = new BatchQueueTracker(4, 16);
    q.advance([
      ...writes(0, 0, 4),
      ev('batch-publish', 0, 4),
      ...reads(0, 0, 4),
      ...writes(1, 0, 4),
      ev('batch-publish', 1, 4), // the consumer's release of 0 was stamped late
    ]);
    let s = q.snapshot();
    expect(s).toMatchObject({ publishes: 1, releases: 0, status: true });
    expect(s.halves[1].published).toBeNull();
    q.advance([ev('batch-release', 0, 4)]);
    s = q.snapshot();
    expect(s).toMatchObject({ publishes: 2, releases: 1, status: true, statusWriter: 'producer' });
    expect(s.halves[1].published).toBe(4);
    expect(s.halves[0]).toEqual({ written: 0, read: 0, published: null, flushed: false });
  });

  test('moves wait as long as the other side is behind: a page preempted between the rings', () => {
    const q = new BatchQueueTracker(4, 16);
    const producer = (h: 0 | 1) => [...writes(h, 0, 4), ev('batch-publish', h, 4)];
    const consumer = (h: 0 | 1) => [...reads(h, 0, 4), ev('batch-release', h, 4)];
    const rounds = [0, 1, 0, 1, 0, 1, 0, 1] as const;
    // This frame read the producer's ring before it recorded rounds 2-7; the consumer's after.
    const frame1 = [...producer(0), ...producer(1)];
    q.advance(
      [...frame1, ...rounds.flatMap((h) => consumer(h))].sort((a, b) => a.timeUs - b.timeUs),
    );
    expect(q.snapshot()).toMatchObject({ itemsRead: 8, releases: 2 });
    q.advance(rounds.slice(2).flatMap((h) => producer(h)));
    expect(q.snapshot()).toMatchObject({
      itemsWritten: 32,
      itemsRead: 32,
      publishes: 8,
      releases: 8,
      status: false,
    });
  });

  test('a dropped record does not freeze the view: when the rings drop, moves go ahead', () => {
    const q = new BatchQueueTracker(4, 16);
    const consumer = [...reads(0, 0, 4), ev('batch-release', 0, 4)];
    q.advance(consumer, 0); // the publish of semi-buffer 0 is missing: is it still coming?
    expect(q.snapshot().itemsRead).toBe(0);
    q.advance([], 1); // no: a ring dropped it
    expect(q.snapshot()).toMatchObject({ itemsRead: 4, releases: 1 });
  });
});

test('firstBatchLink: a 1:1 batch link of a static pipeline, its semi-buffer as C++ rounds it', () => {
  const spec = (capacity: number, kind = 'batch', threads = 1) =>
    parseExperimentSpec({
      runtime: 'static',
      stages: [
        { name: 'a', mode: 'serial-in-order', service: { kind: 'fixed', us: 1 } },
        { name: 'b', mode: 'parallel', threads, service: { kind: 'fixed', us: 1 } },
      ],
      queue: { kind, capacity },
      items: 10,
      seed: 1,
    });
  expect(firstBatchLink(spec(8))).toEqual({ semiItems: 4, itemBytes: 16 });
  expect(firstBatchLink(spec(7))).toEqual({ semiItems: 4, itemBytes: 16 }); // rounded up to 8
  expect(firstBatchLink(spec(1))).toEqual({ semiItems: 1, itemBytes: 16 }); // at least 2
  expect(firstBatchLink(spec(8, 'lamport'))).toBeNull();
  expect(firstBatchLink(spec(8, 'batch', 2))).toBeNull(); // many-to-many: Vyukov's queue
});
