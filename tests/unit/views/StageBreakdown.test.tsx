// StageBreakdown: each station's useful, idle and blocked share of its threads' time, the busiest
// station marked as the bottleneck, a fused group labelled by its first and last stage.
import { renderToStaticMarkup } from 'react-dom/server';
import { expect, test } from 'vitest';
import {
  breakdownShares,
  StageBreakdown,
  type BreakdownStation,
} from '../../../src/views/StageBreakdown';

const stations: BreakdownStation[] = [
  { stages: [{ index: 0, name: 'input', busyUs: 100 }], threads: 1, idleUs: 0, blockedUs: 800 },
  {
    stages: [
      { index: 1, name: 'segment', busyUs: 300 },
      { index: 2, name: 'rank', busyUs: 1500 },
    ],
    threads: 2,
    idleUs: 100,
    blockedUs: 0,
  },
  { stages: [{ index: 3, name: 'output', busyUs: 10 }], threads: 1, idleUs: 950, blockedUs: 0 },
];

test('shares are fractions of threads × run time; the busiest station is the bottleneck', () => {
  const { shares, bottleneck } = breakdownShares(stations, 1000);
  expect(shares[0]).toEqual({ busy: [0.1], useful: 0.1, idle: 0, blocked: 0.8 });
  expect(shares[1].useful).toBe(0.9);
  expect(shares[1].busy).toEqual([0.15, 0.75]);
  expect(shares[2].idle).toBe(0.95);
  expect(bottleneck).toBe(1);
  expect(breakdownShares(stations, 0).bottleneck).toBe(-1);
});

test('renders a row per station with its numbers and provenance', () => {
  const html = renderToStaticMarkup(
    <StageBreakdown stations={stations} runTimeUs={1000} source="threads" />,
  );
  expect(html.match(/data-testid="breakdown-stage"/g)).toHaveLength(3);
  expect(html).toContain('data-stage="segment + rank"');
  expect(html).toContain('segment…rank ×2');
  expect(html.match(/data-bottleneck="true"/g)).toHaveLength(1);
  expect(html).toMatch(/data-stage="segment \+ rank"[^>]*data-bottleneck="true"/);
  expect(html).toContain('data-kind="measured"');
  expect(html).not.toContain('data-kind="simulated"');
});
