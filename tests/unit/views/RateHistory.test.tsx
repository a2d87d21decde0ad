// The rate history: no scale before there is a rate (a bare "1.00" read as a measurement), then
// its top tick in counts per second.
import { renderToStaticMarkup } from 'react-dom/server';
import { expect, test } from 'vitest';
import { RateHistory } from '../../../src/views/RateHistory';

const ticks = (html: string) => [...html.matchAll(/class="tick"[^>]*>([^<]*)</g)].map((m) => m[1]);

test('before any rate it says what will draw there; then the top tick has its unit', () => {
  // Zeros before the threads count are no rate either (the page samples them while idle).
  expect(
    ticks(
      renderToStaticMarkup(
        <RateHistory
          history={[
            [0, 0],
            [100, 0],
          ]}
          maxRatePerSec={1}
        />,
      ),
    ),
  ).toEqual(ticks(renderToStaticMarkup(<RateHistory history={[]} maxRatePerSec={1} />)));
  expect(ticks(renderToStaticMarkup(<RateHistory history={[]} maxRatePerSec={1} />))).toEqual([
    'the total rate draws here while threads count',
    '0',
    'last 10 s',
  ]);
  const drawn = ticks(
    renderToStaticMarkup(
      <RateHistory
        history={[
          [0, 1e6],
          [500, 2e6],
        ]}
        maxRatePerSec={2.5e6}
      />,
    ),
  );
  expect(drawn[0]).toMatch(/\/s$/);
  expect(drawn[0]).not.toBe('1.00');
});
