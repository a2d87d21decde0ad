// copyTap: an ended run keeps its last telemetry in a buffer of its own — the events still unread
// in its rings, its counters and its phaser board read back as from the original, and whatever
// is written into the original afterwards (the next run, in the same wasm memory) is not seen.
import { expect, test } from 'vitest';
import { copyTap, createTapWriter, emptyStageCounters, readTap } from '../../../src/telemetry';

test('the copy reads as the original did, and later writes to the original do not reach it', () => {
  const w = createTapWriter(2, 3, 8, { taskCapacity: 4, streamCapacity: 2 });
  const event = (worker: number, item: number) =>
    ({ kind: 'end', worker, stage: 2, item, timeUs: item * 10, arg: 0 }) as const;
  w.rings[0].push(event(0, 1));
  w.rings[1].push(event(1, 2));
  // One event read already: the copy holds only what is still unread, as the original does.
  readTap(w.tap);
  w.rings[0].push(event(0, 3));
  w.rings[1].setDropped(5);
  w.writeCounters([1, 2, 3].map((itemsOut) => ({ ...emptyStageCounters(), itemsOut })));
  w.board!.addTask(0, null, 7, null, null);
  const copy = copyTap(w.tap);
  expect(copy.buffer).not.toBe(w.tap.buffer);

  w.rings[0].push(event(0, 4));
  w.writeCounters([0, 0, 0].map(() => emptyStageCounters()));
  w.board!.addTask(1, 0, 8, null, null);
  const frame = readTap(copy);
  expect(frame.events.map((e) => e.item)).toEqual([3]);
  expect(frame.dropped).toBe(5);
  expect(frame.counters.map((c) => c.itemsOut)).toEqual([1, 2, 3]);
  expect(frame.board?.tasks.map((t) => t.label)).toEqual([7]);
  // Read once, the copy's rings are empty, as a tap's are.
  expect(readTap(copy).events).toEqual([]);
});

test('a tap without a board copies without one', () => {
  const w = createTapWriter(1, 1, 4);
  const copy = copyTap(w.tap);
  expect(copy.boardOffset).toBeUndefined();
  expect(readTap(copy).board).toBeNull();
});
