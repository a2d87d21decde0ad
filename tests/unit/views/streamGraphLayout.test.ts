// The stream graph's layouts leave every label readable. The sieve: no two task boxes overlap, a
// filter's box holds the longest name the run can give it, and no stream buffer (its "full/bound"
// label included) lies on a task box — before the run (one filter(?)) and with a long chain of
// 4-digit primes, at every buffer width and at other drawing widths; no link of the chain crosses a
// box or a buffer, and a chain cut in the middle shows a dashed box in the middle's place (never
// for one filter). A ring: no two buffers overlap, at the smallest and the widest bound.
import { describe, expect, test } from 'vitest';
import {
  bufferLeft,
  layoutStreamGraph,
  MAX_SIEVE_NODES,
  plannedStreams,
  plannedTasks,
  RING_LABEL_PX,
  SLOT_PX,
  taskLabel,
  type NodeBox,
  type Point,
} from '../../../src/views/streamGraphLayout';
import { ring, sieve } from '../sim/phaserSpecs';
import { sieveBoard } from './sieveBoard';

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
function sieveTasks(filters: number, bound: number, batch = 1) {
  const spec = { ...sieve({}, 1999), bound, batch };
  const primes = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71];
  const { tasks, links } = sieveBoard(spec, filters, (i) =>
    i < primes.length ? primes[i] : 1999 - 2 * i,
  );
  return { spec, tasks, links };
}

/** The segments of a line as thin boxes (every segment of the sieve's lines is level or upright). */
const segments = (points: Point[]): Rect[] =>
  points.slice(1).map((b, i) => {
    const a = points[i];
    return {
      x: Math.min(a.x, b.x),
      y: Math.min(a.y, b.y),
      w: Math.abs(a.x - b.x) || 0.01,
      h: Math.abs(a.y - b.y) || 0.01,
    };
  });
/** A box shrunk by 1 px each side: a line may end on its edge. */
const inner = (r: Rect): Rect => ({ x: r.x + 1, y: r.y + 1, w: r.w - 2, h: r.h - 2 });

/** How many filters the view draws of a chain of `filters`: all, or MAX_SIEVE_NODES and a box. */
const drawn = (filters: number) => (filters > MAX_SIEVE_NODES + 1 ? MAX_SIEVE_NODES : filters);

// The lesson draws at 900 px; the others check the margins' arithmetic. At 900 px and bound 64
// there are 4 filters a row, so the dashed box opens a row (36 first filters).
describe.each([
  ['before the run', 1, 8, 900],
  ['with a chain longer than the view shows', 300, 8, 900],
  ['with the widest buffers (bound 64: 16 slots)', 300, 64, 900],
  ['with 10 slots (the first wrap ran through the buffer)', 300, 10, 900],
  ['with 12 slots', 300, 12, 900],
  ['with one filter more than the view shows', MAX_SIEVE_NODES + 1, 8, 900],
  ['with two filters more than the view shows', MAX_SIEVE_NODES + 2, 16, 900],
  ['drawn 640 px wide', 300, 16, 640],
  ['drawn 1400 px wide', 300, 12, 1400],
  // Batched, a buffer's label grows a note: "16/16 ×64", "64/64 ×4096" (79 px).
  ['with a batch note (bound 16, batch 64)', 300, 16, 900, 64],
  ['with the widest label (bound 64, batch 4096)', 300, 64, 900, 4096],
])('the sieve %s', (_name, filters, bound, width, batch = 1) => {
  const { spec, tasks, links } = sieveTasks(filters, bound, batch);
  const layout = layoutStreamGraph(spec, tasks, [...plannedStreams(spec), ...links], width);
  /** The two ends' buffers as the view draws them, label included. */
  const buffers = layout.streams
    .filter((s) => !s.route)
    .map((s) => ({
      x: bufferLeft(s.x, layout.slots, width, layout.labelPx),
      y: s.y - SLOT_PX / 2,
      w: layout.slots * SLOT_PX + layout.labelPx,
      h: SLOT_PX,
    }));

  test('no two task boxes overlap, and each fits the drawing', () => {
    const { nodes } = layout;
    expect(nodes.length).toBe(drawn(filters) + 2);
    for (const a of nodes) {
      expect(a.x).toBeGreaterThanOrEqual(0);
      expect(a.x + a.w).toBeLessThanOrEqual(width);
      expect(a.y + a.h).toBeLessThanOrEqual(layout.height);
      for (const b of nodes)
        if (a !== b) expect(overlap(a, b), `${named(a)}, ${named(b)}`).toBe(false);
    }
  });

  test("a filter's box holds filter(1999), 84 px in Chromium", () => {
    const filter = layout.nodes.find((n) => taskLabel(spec, n.task).startsWith('filter'))!;
    expect(filter.w).toBeGreaterThanOrEqual(84 + 6);
  });

  test('no link of the chain crosses a box or a buffer: rows wrap between the rows', () => {
    const lines = [
      ...layout.streams
        .filter((s) => s.route)
        .map((s) => ({ points: s.route!, ends: [...s.from, ...s.to] })),
      ...(layout.gap?.links ?? []).map((points) => ({ points, ends: [] as NodeBox[] })),
    ];
    // Every shown filter is linked to the next, except across the cut, which the gap's two take.
    expect(lines).toHaveLength(drawn(filters) - 1 + (layout.gap ? 1 : 0));
    if (filters > 12) expect(lines.some((l) => l.points.length > 2)).toBe(true); // some wrap
    expect(buffers).toHaveLength(2);
    const boxes = [...layout.nodes, ...(layout.gap ? [layout.gap] : []), ...buffers];
    for (const { points, ends } of lines)
      for (const seg of segments(points))
        for (const n of boxes)
          if (!ends.includes(n as NodeBox))
            expect(overlap(seg, inner(n)), `${JSON.stringify(points)} crosses a box`).toBe(false);
  });

  test('a chain cut in the middle shows a dashed box in its place, saying how many it hides', () => {
    if (drawn(filters) === filters) return expect(layout.gap).toBeNull();
    const gap = layout.gap!;
    expect(gap.hidden).toBe(filters - MAX_SIEVE_NODES);
    expect(gap.hidden).toBeGreaterThanOrEqual(2);
    // In reading order: after the last of the first filters, before the first of the newest.
    const filtersShown = layout.nodes.filter((n) => taskLabel(spec, n.task).startsWith('filter'));
    const order = (b: Rect) => b.y * 10_000 + b.x;
    const before = filtersShown.filter((n) => order(n) < order(gap));
    expect(before.map((n) => n.task.id)).toEqual(
      tasks
        .filter((t) => t.stage === 1)
        .slice(0, before.length)
        .map((t) => t.id),
    );
    const {
      links: [into, outOf],
    } = gap;
    expect(into[0]).toEqual({
      x: before.at(-1)!.x + before.at(-1)!.w,
      y: before.at(-1)!.y + before.at(-1)!.h / 2,
    });
    expect(outOf.at(-1)!.x).toBe(filtersShown[before.length].x);
  });

  test('the buffers of the numbers and the primes lie on no task box', () => {
    expect(buffers).toHaveLength(2);
    // Room for the label the view writes: "bound/bound", and " ×batch" when batched.
    const label = `${bound}/${bound}${batch > 1 ? ` ×${batch}` : ''}`;
    expect(layout.labelPx).toBeGreaterThanOrEqual(4 + label.length * 7.2);
    for (const buffer of buffers) {
      expect(buffer.x).toBeGreaterThanOrEqual(0);
      expect(buffer.x + buffer.w).toBeLessThanOrEqual(width);
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
