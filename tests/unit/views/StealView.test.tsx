// StealView markup: a column of cells per worker deque, and arrows only for valid steals younger
// than fadeMs, fading with age; the running steal count.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, test } from 'vitest';
import {
  arrowOpacity,
  arrowWidth,
  MAX_DEQUE_CELLS,
  MAX_STEAL_ARROWS,
  StealView,
  type StealViewProps,
} from '../../../src/views/StealView';

/** Attributes of every `<name ...>` tag in the markup whose class list contains `cls` (if given). */
function tags(html: string, name: string, cls?: string): Array<Record<string, string>> {
  const found = [...html.matchAll(new RegExp(`<${name}\\b([^>]*)>`, 'g'))].map((m) =>
    Object.fromEntries([...m[1].matchAll(/([\w:-]+)="([^"]*)"/g)].map((a) => [a[1], a[2]])),
  );
  return cls ? found.filter((t) => (t.class ?? '').split(' ').includes(cls)) : found;
}

const arrows = (html: string) => tags(html, 'path', 'steal-arrow');

const base: StealViewProps = {
  dequeLengths: [3, 0, 5, 1],
  steals: [{ thief: 1, victim: 2, ageMs: 100 }],
  stealCount: 12_345,
  source: 'threads',
};

const render = (p: Partial<StealViewProps> = {}) =>
  renderToStaticMarkup(<StealView {...base} {...p} />);

describe('StealView', () => {
  test('no workers: a hint instead of a drawing', () => {
    const html = render({ dequeLengths: [], steals: [] });
    expect(html).toContain('No workers yet');
    expect(tags(html, 'rect')).toHaveLength(0);
  });

  test('one column per worker, one cell per deque item', () => {
    const html = render();
    expect(tags(html, 'g').filter((t) => t['data-testid'] === 'deque')).toHaveLength(4);
    expect(tags(html, 'rect', 'deque-cell')).toHaveLength(9);
  });

  test('a long deque is capped at MAX_DEQUE_CELLS cells and labelled with its length', () => {
    const html = render({ dequeLengths: [MAX_DEQUE_CELLS + 30] });
    expect(tags(html, 'rect', 'deque-cell')).toHaveLength(MAX_DEQUE_CELLS);
    expect(html).toContain(`>${MAX_DEQUE_CELLS + 30}<`);
  });

  test('arrows only for steals younger than fadeMs', () => {
    const steals = [0, 500, 999, 1000, 1500].map((ageMs) => ({ thief: 0, victim: 2, ageMs }));
    expect(arrows(render({ steals }))).toHaveLength(3);
    expect(arrows(render({ steals, fadeMs: 400 }))).toHaveLength(1);
    expect(arrows(render({ steals: [] }))).toHaveLength(0);
  });

  test('arrows fade with age and run from victim to thief', () => {
    const steals = [
      { thief: 0, victim: 3, ageMs: 0 },
      { thief: 3, victim: 0, ageMs: 750 },
    ];
    const byThief = (t: string) => arrows(render({ steals })).find((a) => a['data-thief'] === t)!;
    const [young, old] = [byThief('0'), byThief('3')];
    expect(Number(young.opacity)).toBe(1);
    expect(Number(old.opacity)).toBe(0.3);
    expect([young['data-victim'], young['data-thief']]).toEqual(['3', '0']);
    const startX = (d: string) => Number(/^M([\d.]+)/.exec(d)![1]);
    const endX = (d: string) => Number(/ ([\d.]+),[\d.]+$/.exec(d)![1]);
    expect(startX(young.d)).toBeGreaterThan(endX(young.d));
    expect(startX(old.d)).toBeLessThan(endX(old.d));
  });

  test('steals with bad workers or ages are skipped', () => {
    const steals = [
      { thief: 1, victim: 1, ageMs: 10 },
      { thief: 9, victim: 0, ageMs: 10 },
      { thief: 0, victim: -1, ageMs: 10 },
      { thief: 0, victim: 1, ageMs: Number.NaN },
      { thief: 0, victim: 1, ageMs: -5 },
    ];
    const html = render({ steals });
    expect(arrows(html)).toHaveLength(0);
    expect(html).not.toMatch(/NaN|Infinity/);
  });

  test('NaN deque lengths draw no cells and show a dash', () => {
    const html = render({ dequeLengths: [Number.NaN, Number.POSITIVE_INFINITY, 2] });
    expect(tags(html, 'rect', 'deque-cell')).toHaveLength(2);
    expect(html).not.toMatch(/NaN|Infinity/);
    expect(html).toContain('–');
  });

  test('the steal count, and marks that say where they came from', () => {
    const html = render();
    expect(html).toContain('12,345');
    expect(html).toMatch(/aria-label="4 work-stealing deques holding 9 items/);
    expect(arrows(html)[0]['data-kind']).toBe('measured');
    const sim = render({ source: 'simulation' });
    expect(sim).not.toContain('data-kind="measured"');
    expect(arrows(sim)[0]['data-kind']).toBe('simulated');
  });
});

describe('StealView with many steals', () => {
  test('an entry standing for many steals is drawn thicker, and counted in the summary', () => {
    const steals = [
      { thief: 0, victim: 1, ageMs: 10, count: 1 },
      { thief: 1, victim: 0, ageMs: 5, count: 1000 },
    ];
    const html = render({ steals });
    const [many, one] = arrows(html); // drawn in order of victim
    expect(Number(one['stroke-width'])).toBe(arrowWidth(1));
    expect(Number(many['stroke-width'])).toBeGreaterThan(Number(one['stroke-width']));
    expect(many['data-count']).toBe('1000');
    expect(html).toContain('1,001 in the last 1000 ms');
  });

  test('at most MAX_STEAL_ARROWS arrows, the newest, however many entries', () => {
    const steals = Array.from({ length: 500 }, (_, k) => ({
      thief: k % 4,
      victim: (k + 1) % 4,
      ageMs: 499 - k,
    }));
    const drawn = arrows(render({ steals }));
    expect(drawn).toHaveLength(MAX_STEAL_ARROWS);
    expect(Number(drawn.at(-1)!.opacity)).toBe(1);
  });

  test('opacity falls in steps of 0.1 and stays above 0 while the arrow is shown', () => {
    expect(arrowOpacity(0, 1000)).toBe(1);
    expect(arrowOpacity(40, 1000)).toBe(1);
    expect(arrowOpacity(150, 1000)).toBe(0.9);
    expect(arrowOpacity(999, 1000)).toBe(0.1);
  });

  test('arrow width is bounded and grows with the count', () => {
    expect(arrowWidth(1)).toBe(2);
    expect(arrowWidth(1024)).toBe(7);
    expect(arrowWidth(1e12)).toBe(8);
    expect(arrowWidth(0)).toBe(2);
  });
});
