// ModelChart markup: model curves as paths named in the legend, measured and simulated dots with spread
// bars, the current-x marker, integer ticks for small domains, a legend, and non-finite values
// skipped.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, test } from 'vitest';
import { ModelChart, type ModelChartProps } from '../../../src/views/ModelChart';

/** Attributes of every `<name ...>` tag in the markup whose class list contains `cls` (if given). */
function tags(html: string, name: string, cls?: string): Array<Record<string, string>> {
  const found = [...html.matchAll(new RegExp(`<${name}\\b([^>]*)>`, 'g'))].map((m) =>
    Object.fromEntries([...m[1].matchAll(/([\w:-]+)="([^"]*)"/g)].map((a) => [a[1], a[2]])),
  );
  return cls ? found.filter((t) => (t.class ?? '').split(' ').includes(cls)) : found;
}

/** The run marks in document order (circles for measured, diamonds for simulated), with their
 * centre as cx/cy whatever their shape. */
function marks(html: string): Array<Record<string, string>> {
  return [...html.matchAll(/<(circle|rect)\b([^>]*)>/g)]
    .map((m) => ({
      shape: m[1],
      ...Object.fromEntries([...m[2].matchAll(/([\w:-]+)="([^"]*)"/g)].map((a) => [a[1], a[2]])),
    }))
    .filter((t: Record<string, string>) => t['data-kind'])
    .map((t: Record<string, string>) =>
      t.shape === 'rect'
        ? {
            ...t,
            cx: String(Number(t.x) + Number(t.width) / 2),
            cy: String(Number(t.y) + Number(t.height) / 2),
          }
        : t,
    );
}

const byTestId = (html: string, id: string) =>
  tags(html, 'g').filter((t) => t['data-testid'] === id);

const base: ModelChartProps = {
  xLabel: 'threads',
  yLabel: 'throughput (items/s)',
  curves: [
    {
      id: 'case1',
      label: 'Case 1 model',
      points: [
        [1, 100],
        [2, 200],
        [4, 400],
        [8, 400],
      ],
    },
    {
      id: 'ideal',
      label: 'Ideal',
      points: [
        [1, 100],
        [8, 800],
      ],
      dashed: true,
    },
  ],
  points: [
    { x: 1, y: 95, min: 90, max: 99, source: 'threads' },
    { x: 2, y: 190, source: 'threads' },
    { x: 8, y: 380, min: 360, max: 395, source: 'simulation' },
  ],
  currentX: 4,
};

const render = (p: Partial<ModelChartProps> = {}) =>
  renderToStaticMarkup(<ModelChart {...base} {...p} />);

describe('ModelChart', () => {
  test('nothing to plot: a hint instead of a drawing', () => {
    const html = render({ curves: [], points: [] });
    expect(html).toContain('No model or runs yet');
    expect(tags(html, 'path')).toHaveLength(0);
  });

  test('one path per curve, model kind, dashed only for secondary readings, labelled', () => {
    const html = render();
    const lines = tags(html, 'path').filter((t) => t['data-kind'] === 'model');
    expect(lines).toHaveLength(2);
    expect(lines[0].d.split('L')).toHaveLength(4);
    expect(lines[0]['stroke-dasharray']).toBeUndefined();
    expect(lines[1]['stroke-dasharray']).toBeDefined();
    expect(html).toContain('>model: Case 1 model<');
    expect(html).toContain('>model: Ideal<');
  });

  test('marks for runs: measured circles for threads, simulated diamonds for the twin', () => {
    const dots = marks(render());
    expect(dots.map((d) => [d['data-kind'], d.shape])).toEqual([
      ['measured', 'circle'],
      ['measured', 'circle'],
      ['simulated', 'rect'],
    ]);
  });

  test('the numbers as tables: every curve point and every run with its source', () => {
    const html = render();
    expect(html).toContain('<details class="chart-data">');
    expect(html).toContain('<caption>Model curves: throughput (items/s)</caption>');
    expect(html).toMatch(/<th scope="row">8<\/th><td>400.0<\/td><td>800.0<\/td>/);
    expect(html).toMatch(
      /<th scope="row">8<\/th><td>380.0<\/td><td>360.0<\/td><td>395.0<\/td><td>simulated<\/td>/,
    );
  });

  test('spread bars from min to max where repeats give them', () => {
    const html = render();
    const spreads = tags(html, 'path', 'spread');
    expect(spreads).toHaveLength(2);
    expect(spreads.map((s) => s['data-kind'])).toEqual(['measured', 'simulated']);
    const dots = marks(html);
    const [top, bottom] = [/V([\d.]+)/.exec(spreads[0].d)![1], /,([\d.]+)h/.exec(spreads[0].d)![1]];
    expect(Number(top)).toBeLessThan(Number(dots[0].cy));
    expect(Number(bottom)).toBeGreaterThan(Number(dots[0].cy));
  });

  test('y ticks in SI units from zero', () => {
    const yTicks = [...render().matchAll(/text-anchor="end" class="tick">([^<]*)</g)].map(
      (m) => m[1],
    );
    expect(yTicks).toEqual(['0', '200', '400', '600', '800']);
  });

  test('heights are proportional to throughput', () => {
    const dots = marks(render());
    const line = tags(render(), 'line', 'axis')[0];
    const base0 = Number(line.y1);
    const h = dots.map((d) => base0 - Number(d.cy));
    expect(Math.round((100 * h[1]) / h[0])).toBe(200);
  });

  test('NaN and Infinity are skipped, never drawn', () => {
    const html = render({
      curves: [
        {
          id: 'm',
          label: 'm',
          points: [
            [1, 1],
            [2, Number.NaN],
            [3, 3],
            [Infinity, 4],
          ],
        },
      ],
      points: [
        { x: Number.NaN, y: 1, source: 'threads' },
        { x: 2, y: Number.POSITIVE_INFINITY, source: 'threads' },
        { x: 3, y: 2, min: Number.NaN, max: 2.5, source: 'threads' },
      ],
    });
    expect(html).not.toMatch(/NaN|Infinity/);
    expect(marks(html)).toHaveLength(1);
    const d = tags(html, 'path').find((t) => t['data-kind'] === 'model')!.d;
    expect(d.split('L')).toHaveLength(2);
  });

  test('a highlighted marker at currentX, between the points either side', () => {
    const html = render();
    expect(byTestId(html, 'current-x')).toHaveLength(1);
    const marker = Number(tags(html, 'line', 'current-x')[0].x1);
    const dots = marks(html);
    expect(marker).toBeGreaterThan(Number(dots[1].cx));
    expect(marker).toBeLessThan(Number(dots[2].cx));
    expect(byTestId(render({ currentX: undefined }), 'current-x')).toHaveLength(0);
  });

  test('integer x ticks when the domain is small, round ticks otherwise', () => {
    const xTicks = (html: string) =>
      [...html.matchAll(/text-anchor="middle" class="tick">([^<]*)</g)].map((m) => m[1]);
    expect(xTicks(render())).toEqual(['1', '2', '3', '4', '5', '6', '7', '8']);
    const few = render({ curves: [], points: [1, 4].map((x) => ({ x, y: 1, source: 'threads' })) });
    expect(xTicks(few)).toEqual(['1', '2', '3', '4']);
    const wide = render({
      curves: [],
      points: [0, 1000].map((x) => ({ x, y: 1, source: 'threads' })),
    });
    expect(xTicks(wide)).toEqual(['0', '200', '400', '600', '800', '1000']);
  });

  test('a legend naming the measured and simulated marks present and every curve', () => {
    const html = render();
    expect(byTestId(html, 'legend-item')).toHaveLength(4);
    expect(html).toContain('measured (threads)');
    expect(html).toContain('>simulated<');
    const swatches = tags(html, 'line', 'model-line');
    expect(swatches.map((l) => l['stroke-dasharray'] !== undefined)).toEqual([false, true]);
    expect(byTestId(render({ points: [] }), 'legend-item')).toHaveLength(2);
    expect(html).toContain('>throughput (items/s)<');
    expect(html).toContain('>threads<');
  });

  test('long curve names wrap to more legend rows inside the width, and the plot moves down', () => {
    const long = 'a model with a very long name indeed, longer than half the chart';
    const curves = base.curves.map((c) => ({ ...c, label: long + c.id }));
    const width = 500;
    const html = render({ curves, width });
    const shifts = byTestId(html, 'legend-item').map((g) =>
      /translate\(([\d.]+),([\d.]+)\)/.exec(g.transform)!.slice(1).map(Number),
    );
    expect(new Set(shifts.map(([, y]) => y)).size).toBeGreaterThan(1);
    for (const [x] of shifts) expect(x).toBeLessThan(width);
    const topOf = (h: string) => Number(tags(h, 'rect', 'current-x-band')[0].y);
    expect(topOf(html)).toBeGreaterThan(topOf(render({ width })));
  });
});
