// The semi-buffer chart's log axes: over less than a decade d3 gives a tick at every multiple 1…9,
// and labelling each made them overlap (lesson 5, "Measure every size", at 1280 px); only ticks
// with room for their label are labelled, the round ones first.
import { renderToStaticMarkup } from 'react-dom/server';
import { scaleLog } from 'd3';
import { expect, test } from 'vitest';
import { spacedLogTicks } from '../../../src/views/chartLayout';
import { LatencyChart } from '../../../src/views/LatencyChart';

test('log ticks keep their labels apart, powers of ten and 2s and 5s first', () => {
  const x = scaleLog().domain([2e6, 9e7]).range([0, 600]);
  const all = x.ticks(4);
  expect(all.length).toBeGreaterThan(15); // what overlapped
  const kept = spacedLogTicks(all, x, 64);
  for (let i = 1; i < kept.length; i++)
    expect(x(kept[i]) - x(kept[i - 1])).toBeGreaterThanOrEqual(64);
  expect(kept).toContain(1e7);
  expect(kept.length).toBeGreaterThan(3);
  expect(kept.every((t) => all.includes(t))).toBe(true);
  // Where every tick has room, every tick is kept.
  expect(spacedLogTicks([1, 10, 100], scaleLog().domain([1, 100]).range([0, 600]), 64)).toEqual([
    1, 10, 100,
  ]);
});

test('the chart labels no two x ticks closer than a label is wide', () => {
  const html = renderToStaticMarkup(
    <LatencyChart
      widthPx={760}
      points={[1, 2, 4, 8, 16, 64].map((lines) => ({
        lines,
        itemsPerS: 3e6 * lines ** 0.8,
        waitUs: lines * 4,
      }))}
    />,
  );
  const xs = [...html.matchAll(/<text x="([\d.]+)" y="[\d.]+" text-anchor="middle">/g)].map((m) =>
    Number(m[1]),
  );
  expect(xs.length).toBeGreaterThan(2);
  for (let i = 1; i < xs.length; i++) expect(xs[i] - xs[i - 1]).toBeGreaterThanOrEqual(64);
});
