// The stream graph's layouts leave every label readable. The sieve: no two task boxes overlap, a
// filter's box holds the longest name the run can give it, and no stream buffer (its "full/bound"
// label included) lies on a task box — before the run (one filter(?)) and with a long chain of
// 4-digit primes. A ring: no two buffers overlap, at the smallest and the widest bound.
import { describe, expect, test } from 'vitest';
import type { BoardTask } from '../../../src/telemetry';
import {
  BUFFER_LABEL_PX,
  layoutStreamGraph,
  MAX_SIEVE_NODES,
  plannedStreams,
  plannedTasks,
  RING_LABEL_PX,
  SLOT_PX,
  taskLabel,
  type NodeBox,
} from '../../../src/views/streamGraphLayout';
import { ring, sieve } from '../sim/phaserSpecs';

interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}
const overlap = (a: Rect, b: Rect) =>
  a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
const named = (n: NodeBox) => `${n.task.id}`;

/** The sieve to 2000 with `filters` filter tasks, the first primes and then the largest ones. */
function sieveTasks(filters: number, bound: number) {
  const spec = { ...sieve({}, 1999), bound };
  const planned = plannedTasks(spec);
  const primes = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71];
  const tasks: BoardTask[] = [
    ...planned,
    ...Array.from({ length: filters - 1 }, (_, i) => ({
      ...planned[1],
      id: planned.length + i,
      parent: i === 0 ? 1 : planned.length + i - 1,
      label: i < primes.length ? primes[i] : 1999 - 2 * i,
    })),
  ];
  return { spec, tasks };
}

describe.each([
  ['before the run', 1, 8],
  ['with a chain longer than the view shows', 300, 8],
  ['with the widest buffers (bound 64: 16 slots)', 300, 64],
])('the sieve %s', (_name, filters, bound) => {
  const { spec, tasks } = sieveTasks(filters, bound);
  const layout = layoutStreamGraph(spec, tasks, plannedStreams(spec), 900);

  test('no two task boxes overlap, and each fits the drawing', () => {
    const { nodes } = layout;
    expect(nodes.length).toBe(Math.min(filters, MAX_SIEVE_NODES) + 2);
    for (const a of nodes) {
      expect(a.x).toBeGreaterThanOrEqual(0);
      expect(a.x + a.w).toBeLessThanOrEqual(900);
      expect(a.y + a.h).toBeLessThanOrEqual(layout.height);
      for (const b of nodes)
        if (a !== b) expect(overlap(a, b), `${named(a)}, ${named(b)}`).toBe(false);
    }
  });

  test("a filter's box holds filter(1999), 84 px in Chromium", () => {
    const filter = layout.nodes.find((n) => taskLabel(spec, n.task).startsWith('filter'))!;
    expect(filter.w).toBeGreaterThanOrEqual(84 + 6);
  });

  test('the buffers of the numbers and the primes lie on no task box', () => {
    expect(layout.streams).toHaveLength(2);
    for (const s of layout.streams) {
      const buffer = {
        x: s.x - (layout.slots * SLOT_PX) / 2,
        y: s.y - SLOT_PX / 2,
        w: layout.slots * SLOT_PX + BUFFER_LABEL_PX,
        h: SLOT_PX,
      };
      // The view keeps a buffer inside the drawing: the same clamp.
      buffer.x = Math.max(0, Math.min(buffer.x, 900 - buffer.w));
      expect(buffer.y).toBeGreaterThanOrEqual(0);
      expect(buffer.y + buffer.h).toBeLessThanOrEqual(layout.height);
      for (const n of layout.nodes) expect(overlap(buffer, n), named(n)).toBe(false);
    }
  });
});

describe.each([
  [4, 8],
  [8, 8],
  [8, 64],
  [16, 64],
])('a ring of %i tasks, bound %i', (n, bound) => {
  test('no two buffers overlap, and each lies inside the drawing', () => {
    const spec = { ...ring({ items: 10 }, n), bound };
    const layout = layoutStreamGraph(spec, plannedTasks(spec), plannedStreams(spec), 900);
    const buffers = layout.streams.map((s) => ({
      x: s.x - (layout.slots * SLOT_PX) / 2,
      y: s.y - SLOT_PX / 2,
      w: layout.slots * SLOT_PX + 4 + RING_LABEL_PX,
      h: SLOT_PX,
    }));
    expect(buffers).toHaveLength(n);
    // The lesson's ring (8 tasks) draws every slot of the bound; 16 tasks at bound 64 draw fewer.
    if (n <= 8) expect(layout.slots).toBe(Math.min(bound, 16));
    expect(layout.slots).toBeGreaterThanOrEqual(1);
    for (const a of buffers) {
      expect(a.x).toBeGreaterThanOrEqual(0);
      expect(a.x + a.w).toBeLessThanOrEqual(900);
      for (const b of buffers) if (a !== b) expect(overlap(a, b)).toBe(false);
    }
  });
});
