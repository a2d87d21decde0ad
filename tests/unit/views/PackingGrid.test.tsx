// PackingGrid: cores as columns holding their threads, a hatched barrier wait per thread, and a
// caption whose sentences hold at the interval's numbers; real threads under the OS stand in one
// column, the cores unseen.
import { renderToStaticMarkup } from 'react-dom/server';
import { expect, test } from 'vitest';
import { BarrierTracker } from '../../../src/live/barrierState';
import { createSimulation } from '../../../src/runtimes';
import { parseExperimentSpec } from '../../../src/spec/experimentSpec';
import type { TelemetryEvent } from '../../../src/telemetry';
import { describeInterval, PackingGrid } from '../../../src/views/PackingGrid';

function lastInterval(schedule: string, cores = 2) {
  const spec = parseExperimentSpec({
    runtime: 'barrier',
    stages: [{ name: 'compute', mode: 'parallel', service: { kind: 'fixed', us: 30000 } }],
    threads: 3,
    cores,
    items: 2,
    seed: 1,
    schedule,
  });
  const events: TelemetryEvent[] = [];
  createSimulation(spec, { sink: (e) => events.push({ ...e, seq: 0 }) }).runToEnd();
  const tracker = new BarrierTracker(3);
  tracker.advance(events);
  return tracker.snapshot().last!;
}

const attrs = (html: string, testid: string) =>
  [...html.matchAll(new RegExp(`<g ([^>]*data-testid="${testid}"[^>]*)>`, 'g'))].map((m) =>
    Object.fromEntries([...m[1].matchAll(/([\w-]+)="([^"]*)"/g)].map((a) => [a[1], a[2]])),
  );

test('packed 3 on 2: core 0 holds two threads and finished last; the lone thread waits half', () => {
  const interval = lastInterval('packed');
  const html = renderToStaticMarkup(
    <PackingGrid
      interval={interval}
      intervalsTotal={2}
      idleShare={[0, 0.5, 0]}
      cores={2}
      source="simulation"
    />,
  );
  expect(attrs(html, 'packing-core').map((c) => [c['data-core'], c['data-threads']])).toEqual([
    ['0', '2'],
    ['1', '1'],
  ]);
  expect(attrs(html, 'packing-thread').map((t) => t['data-thread'])).toEqual(['0', '2', '1']);
  expect(html.match(/data-testid="barrier-wait"/g)).toHaveLength(3);
  expect(html).toContain('data-kind="simulated"');
  expect(describeInterval(interval, 2)).toBe(
    'Interval 2 took 20.0 ms. Core 0 ran 2 threads and finished last; the threads that arrived before waited up to 10.0 ms (50% of it) at the barrier.',
  );
});

test('one core runs every thread: no "other" core is said to wait, and no core "finished last"', () => {
  const interval = lastInterval('packed', 1);
  expect(new Set(interval.threads.map((t) => t.core))).toEqual(new Set([0]));
  const text = describeInterval(interval, 1);
  expect(text).toMatch(
    /^Interval 2 took [\d.]+ ms\. Core 0 ran all 3 threads; those that finished before the last one waited up to [\d.]+ ms \(\d+% of it\) at the barrier\.$/,
  );
  expect(text).not.toMatch(/finished last|the others/);
});

test('real threads under the OS: one column, the cores unseen, measured', () => {
  const interval = lastInterval('os');
  const unseen = {
    ...interval,
    threads: interval.threads.map((t) => ({
      ...t,
      core: null,
      stretches: t.stretches.map((s) => ({ ...s, core: null })),
    })),
  };
  const html = renderToStaticMarkup(
    <PackingGrid
      interval={unseen}
      intervalsTotal={2}
      idleShare={[0, 0, 0]}
      cores={null}
      source="threads"
    />,
  );
  expect(attrs(html, 'packing-core').map((c) => [c['data-core'], c['data-threads']])).toEqual([
    ['os', '3'],
  ]);
  expect(html).toContain('placed by the OS on your cores');
  expect(html).toContain('data-kind="measured"');
  expect(describeInterval(unseen, null)).toMatch(
    /^Interval 2 took .* ms\. Thread \d arrived last;/,
  );
});
