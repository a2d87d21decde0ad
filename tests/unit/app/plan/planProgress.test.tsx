// The one progress report: run k of n with the time left and the run in progress while a plan
// runs, with Stop; how it ended afterwards (done, stopped and why, failed at which run and why),
// saying what it kept; data-done and data-total for tests and tools.
import { renderToStaticMarkup } from 'react-dom/server';
import { expect, test } from 'vitest';
import { PlanProgressLine } from '../../../../src/app/plan/PlanProgressLine';
import { planWords, roughTime } from '../../../../src/app/plan/planWords';
import type { PlanProgress } from '../../../../src/engine/planner/planner';

const base: PlanProgress = {
  id: 1,
  owner: 'chart',
  label: 'Sweep threads on extract',
  state: 'running',
  done: 2,
  total: 14,
  current: 'Threads on extract = 3, measured',
  leftMs: 12_300,
  elapsedMs: 2_500,
  stoppedBy: null,
  failure: null,
};

test('running: run k of n, about how long is left, the run in progress', () => {
  expect(planWords(base)).toBe('run 3 of 14 · about 12 s left · Threads on extract = 3, measured');
  expect(planWords({ ...base, leftMs: null })).toBe(
    'run 3 of 14 · Threads on extract = 3, measured',
  );
  expect(planWords({ ...base, state: 'queued', done: 0 })).toBe(
    'Sweep threads on extract: waiting for the run in progress to stop',
  );
});

test('ended: done, stopped with its reason and what was kept, failed at which run and why', () => {
  expect(planWords({ ...base, state: 'done', done: 14, elapsedMs: 18_000 })).toBe(
    'all 14 runs done in 18 s',
  );
  expect(planWords({ ...base, state: 'done', done: 1, total: 1, elapsedMs: 300 })).toBe(
    'the run done in less than a second',
  );
  expect(planWords({ ...base, state: 'stopped', stoppedBy: 'you stopped it' })).toBe(
    'stopped after 2 of 14 runs (you stopped it); the finished ones are kept',
  );
  expect(planWords({ ...base, state: 'stopped', done: 0, stoppedBy: 'replaced by “Run”' })).toBe(
    'stopped after 0 of 14 runs (replaced by “Run”)',
  );
  const failure = { step: 2, label: 'Threads on extract = 3, measured', message: 'out of memory' };
  expect(planWords({ ...base, state: 'failed', failure })).toBe(
    'run 3 of 14 (Threads on extract = 3, measured) failed: out of memory; the 2 runs finished before it are kept',
  );
});

test('rough times', () => {
  expect(roughTime(400)).toBe('less than a second');
  expect(roughTime(59_600)).toBe('60 s');
  expect(roughTime(150_000)).toBe('3 min');
});

test('the line carries done and total, and Stop only while the plan runs', () => {
  const html = (p: PlanProgress | null) =>
    renderToStaticMarkup(<PlanProgressLine plan={{ progress: p, stop: () => {} }} />);
  expect(html(null)).toBe('');
  const running = html(base);
  expect(running).toContain('data-testid="plan-progress"');
  expect(running).toContain('data-state="running"');
  expect(running).toContain('data-done="2"');
  expect(running).toContain('data-total="14"');
  expect(running).toContain('data-testid="plan-stop"');
  const stopped = html({ ...base, state: 'stopped', stoppedBy: 'you stopped it' });
  expect(stopped).toContain('data-state="stopped"');
  expect(stopped).not.toContain('plan-stop');
  expect(
    html({ ...base, state: 'failed', failure: { step: 0, label: 'x', message: 'y' } }),
  ).toContain('role="alert"');
});
