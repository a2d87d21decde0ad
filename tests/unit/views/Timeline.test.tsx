// Timeline markup: one lane per worker, segments clipped to the window with widths proportional
// to their duration, state colours and hatching, a legend with the stage names, a time axis in ms.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, test } from 'vitest';
import { Timeline, type TimelineProps } from '../../../src/views/Timeline';
import { stageColor } from '../../../src/views/stageColors';

/** Attributes of every `<name ...>` tag in the markup carrying `attr` (if given). */
function tags(html: string, name: string, attr?: string): Array<Record<string, string>> {
  const found = [...html.matchAll(new RegExp(`<${name}\\b([^>]*)>`, 'g'))].map((m) =>
    Object.fromEntries([...m[1].matchAll(/([\w:-]+)="([^"]*)"/g)].map((a) => [a[1], a[2]])),
  );
  return attr ? found.filter((t) => attr in t) : found;
}

const segments = (html: string) => tags(html, 'rect', 'data-state');

const base: TimelineProps = {
  lanes: [
    [
      { startUs: 0, endUs: 1_000, state: 'idle', stage: null },
      { startUs: 9_000, endUs: 9_100, state: 'busy', stage: 0 },
      { startUs: 9_100, endUs: 9_400, state: 'busy', stage: 1 },
      { startUs: 9_400, endUs: 10_000, state: 'blocked', stage: 1 },
    ],
    [
      { startUs: 7_000, endUs: 9_500, state: 'stealing', stage: null },
      { startUs: 9_500, endUs: 10_000, state: 'busy', stage: 2 },
    ],
  ],
  stageNames: ['input', 'extract', 'output'],
  nowUs: 10_000,
  windowUs: 2_000,
  source: 'threads',
};

const render = (p: Partial<TimelineProps> = {}) =>
  renderToStaticMarkup(<Timeline {...base} {...p} />);

describe('Timeline', () => {
  test('no lanes: a hint instead of a drawing', () => {
    const html = render({ lanes: [] });
    expect(html).toContain('No thread activity yet');
    expect(segments(html)).toHaveLength(0);
  });

  test('one lane per worker; segments outside the window are not drawn', () => {
    const html = render();
    expect(tags(html, 'g').filter((t) => t['data-testid'] === 'lane')).toHaveLength(2);
    expect(segments(html).map((s) => s['data-state'])).toEqual([
      'busy',
      'busy',
      'blocked',
      'stealing',
      'busy',
    ]);
  });

  test('widths are proportional to durations', () => {
    const [a, b] = segments(render()).map((s) => Number(s.width));
    expect(Math.round((10 * b) / a)).toBe(30);
  });

  test('a segment starting before the window is cut at its left edge', () => {
    const segs = segments(render());
    const stealing = segs.find((s) => s['data-state'] === 'stealing')!;
    const firstBusy = segs[0];
    expect(Math.round(Number(stealing.x))).toBe(76);
    const pxPerUs = Number(firstBusy.width) / 100;
    expect(Math.round(Number(stealing.width) / pxPerUs)).toBe(1_500);
  });

  test('scrolls: advancing nowUs moves a segment left by the elapsed time', () => {
    const at = (nowUs: number) => Number(segments(render({ nowUs }))[1].x);
    const pxPerUs = Number(segments(render())[0].width) / 100;
    expect(Math.round((at(10_000) - at(10_500)) / pxPerUs)).toBe(500);
  });

  test('colours: busy in the stage colour, blocked hatched, stealing purple class', () => {
    const segs = segments(render());
    expect(segs[0].fill).toBe(stageColor(0));
    expect(segs[1].fill).toBe(stageColor(1));
    expect(segs[2].fill).toMatch(/^url\(#hatch-/);
    expect(render()).toContain('<pattern');
    expect(segs[3].class).toBe('seg-stealing');
  });

  test('NaN and Infinity segments are skipped', () => {
    const html = render({
      lanes: [
        [
          { startUs: Number.NaN, endUs: 9_000, state: 'busy', stage: 0 },
          { startUs: 9_000, endUs: Number.POSITIVE_INFINITY, state: 'busy', stage: 0 },
          { startUs: 9_500, endUs: 9_900, state: 'idle', stage: null },
        ],
      ],
    });
    expect(segments(html).map((s) => s['data-state'])).toEqual(['idle']);
    expect(html).not.toMatch(/NaN|Infinity/);
  });

  test('legend names every stage and the idle, blocked and stealing states', () => {
    const html = render();
    expect(tags(html, 'g').filter((t) => t['data-testid'] === 'legend-item')).toHaveLength(6);
    for (const word of ['input', 'extract', 'output', 'idle', 'blocked', 'stealing'])
      expect(html).toContain(`>${word}<`);
  });

  test("'ready' is in the legend and the summary only when named (a barrier run's lanes)", () => {
    expect(render()).not.toContain('seg-ready');
    expect(render()).not.toMatch(/aria-label="[^"]*ready/);
    const lanes = [
      [
        { startUs: 8_000, endUs: 9_000, state: 'busy' as const, stage: 0 },
        { startUs: 9_000, endUs: 9_500, state: 'ready' as const, stage: null },
        { startUs: 9_500, endUs: 10_000, state: 'idle' as const, stage: null },
      ],
    ];
    const html = render({
      lanes,
      stageNames: ['compute'],
      stateNames: { idle: 'done, waiting', blocked: null, stealing: null, ready: 'ready, queued' },
    });
    const legend = [...html.matchAll(/class="legend">([^<]*)</g)].map((m) => m[1]);
    expect(legend).toEqual(['compute', 'done, waiting', 'ready, queued']);
    expect(segments(html).map((r) => r['data-state'])).toEqual(['busy', 'ready', 'idle']);
    expect(html).toMatch(/aria-label="[^"]*busy 50%, idle 25%, ready 25%"/);
  });

  test('time axis in ms over the window', () => {
    const html = render();
    expect(html).toContain('time since start (ms)');
    const ticks = [...html.matchAll(/class="tick">([^<]*)</g)].map((m) => m[1]);
    expect(ticks).toEqual(['8.0', '8.5', '9.0', '9.5', '10.0']);
  });

  test('marks say where they came from; the summary gives shares of time', () => {
    const sim = render({ source: 'simulation' });
    expect(segments(sim).every((s) => s['data-kind'] === 'simulated')).toBe(true);
    expect(segments(render()).every((s) => s['data-kind'] === 'measured')).toBe(true);
    expect(render()).toMatch(/aria-label="[^"]*busy 23%, idle 0%, blocked 15%, stealing 38%/);
  });
});
