// SeriesChart's point notes: written once per setting (a measured and a simulated point there share
// one), and in the right half read leftwards from the point so they stay inside the chart.
import { renderToStaticMarkup } from 'react-dom/server';
import { expect, test } from 'vitest';
import { SeriesChart, type SeriesPoint } from '../../../src/views/SeriesChart';

const note = 'cycle found: 1 element per phase';
const at = (x: number, source: SeriesPoint['source']): SeriesPoint => ({ x, y: 100, source, note });

test('a note is written once at its setting, leftwards in the right half', () => {
  const html = renderToStaticMarkup(
    <SeriesChart
      xLabel="batch"
      yLabel="elements/s"
      width={900}
      xScale="log2"
      series={[
        {
          id: 'ring',
          label: 'ring',
          color: '#333',
          points: [at(1, 'simulation'), at(64, 'simulation'), at(64, 'threads')],
        },
      ]}
    />,
  );
  const notes = [...html.matchAll(/<text ([^>]*)class="point-note"[^>]*>([^<]*)</g)];
  expect(notes.map((m) => m[2])).toEqual([note, note]);
  expect(notes[0][1]).toContain('text-anchor="start"');
  expect(notes[1][1]).toContain('text-anchor="end"');
});

test('a linear axis in thousands writes its zero tick plain, not "0k"', () => {
  const html = renderToStaticMarkup(
    <SeriesChart
      xLabel="threads"
      yLabel="items/s"
      series={[
        {
          id: 'a',
          label: 'a',
          color: '#333',
          points: [
            { x: 1, y: 2000, source: 'simulation' },
            { x: 2, y: 8000, source: 'simulation' },
          ],
        },
      ]}
    />,
  );
  const ticks = [...html.matchAll(/class="tick">([^<]*)</g)].map((m) => m[1]);
  expect(ticks).toContain('0');
  expect(ticks).not.toContain('0k');
  expect(ticks).toContain('2k');
});
