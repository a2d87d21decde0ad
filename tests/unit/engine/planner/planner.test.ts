// The run planner's rules, on a fake engine whose runs the test ends by hand: steps run in order,
// one at a time; progress counts them and estimates the time left from the runs so far (per class
// of run); a stop keeps the finished results and drops one that comes in after it; a failure names
// the run and why and keeps what finished; the latest plan wins (the old one stopped and said so,
// the new one started only after the old run wound down); a plan's steps can grow from a result;
// a closed page's planner starts nothing.
import { expect, test } from 'vitest';
import { Planner, type PlanProgress } from '../../../../src/engine/planner/planner';

interface FakeStep {
  label: string;
  cls?: string;
}

interface Call {
  step: FakeStep;
  signal: AbortSignal;
  finish: (result: unknown) => void;
  fail: (e: Error) => void;
}

/** A planner on a fake engine and a fake clock; each run waits until the test ends it. */
function setup() {
  let nowMs = 0;
  const calls: Call[] = [];
  const planner = new Planner<FakeStep>(
    (step, signal) =>
      new Promise((resolve, reject) => calls.push({ step, signal, finish: resolve, fail: reject })),
    {
      classOf: (s) => s.cls ?? 'a',
      now: () => nowMs,
      yieldTurn: () => Promise.resolve(),
    },
  );
  const settle = () => new Promise((r) => setTimeout(r, 0));
  /** Lets `ms` pass on the clock, then ends the newest run with `result`. */
  const finish = async (ms: number, result: unknown = 'ok') => {
    nowMs += ms;
    calls.at(-1)!.finish(result);
    await settle();
  };
  return { planner, calls, settle, finish };
}

const steps = (n: number, cls?: string): FakeStep[] =>
  Array.from({ length: n }, (_, i) => ({ label: `run ${i}`, cls }));

test('steps run in order, one at a time, each result delivered with its index', async () => {
  const { planner, calls, settle, finish } = setup();
  const got: Array<[unknown, number]> = [];
  const handle = planner.submit({
    label: 'sweep',
    steps: steps(3),
    onResult: (r, i) => void got.push([r, i]),
  });
  await settle();
  expect(calls.map((c) => c.step.label)).toEqual(['run 0']);
  await finish(10, 'a');
  expect(calls.map((c) => c.step.label)).toEqual(['run 0', 'run 1']);
  await finish(10, 'b');
  await finish(10, 'c');
  const end = await handle.finished;
  expect(got).toEqual([
    ['a', 0],
    ['b', 1],
    ['c', 2],
  ]);
  expect(end).toMatchObject({ state: 'done', done: 3, total: 3, current: null, leftMs: null });
});

test('progress: queued, then run k of n with the current run named, then done', async () => {
  const { planner, settle, finish } = setup();
  const seen: PlanProgress[] = [];
  planner.subscribe(() => seen.push(planner.progressOf('chart')!));
  planner.submit({ label: 'sweep', owner: 'chart', steps: steps(2) });
  expect(planner.progressOf('chart')).toMatchObject({ state: 'queued', done: 0, total: 2 });
  await settle();
  expect(planner.progressOf('chart')).toMatchObject({
    state: 'running',
    done: 0,
    total: 2,
    current: 'run 0',
  });
  await finish(5);
  expect(planner.progressOf('chart')).toMatchObject({ done: 1, current: 'run 1' });
  await finish(5);
  expect(planner.progressOf('chart')).toMatchObject({ state: 'done', done: 2, elapsedMs: 10 });
  // Every published snapshot is a new object (a React store compares them by identity).
  expect(new Set(seen).size).toBe(seen.length);
});

test('time left: none before a run finished, then the runs so far, per class of run', async () => {
  const { planner, settle, finish } = setup();
  // Two slow measured runs, then three quick simulated ones.
  const plan = [...steps(2, 'measured'), ...steps(3, 'simulated')];
  planner.submit({ label: 'mixed', owner: 'o', steps: plan });
  await settle();
  expect(planner.progressOf('o')!.leftMs).toBeNull();
  await finish(1000);
  // Run 1 (measured) just started: 1000 for it, and 1000 each for the simulated ones, which have
  // no run of their own class yet (the mean of every run so far).
  expect(planner.progressOf('o')!.leftMs).toBe(4000);
  await finish(1000);
  await finish(10);
  // Two simulated runs left (the one just started included), 10 ms each.
  expect(planner.progressOf('o')!.leftMs).toBe(20);
  await finish(4);
  // The mean of the simulated runs so far, (10 + 4) / 2, for the last one.
  expect(planner.progressOf('o')!.leftMs).toBe(7);
});

test('the estimate carries over from an earlier plan of the page', async () => {
  const { planner, settle, finish } = setup();
  planner.submit({ label: 'first', owner: 'o', steps: steps(1) });
  await settle();
  await finish(200);
  planner.submit({ label: 'second', owner: 'o', steps: steps(3) });
  await settle();
  expect(planner.progressOf('o')).toMatchObject({ label: 'second', leftMs: 600 });
});

test('a stop mid-plan keeps the finished results, drops the interrupted one, says who stopped it', async () => {
  const { planner, calls, settle, finish } = setup();
  const got: unknown[] = [];
  const ends: PlanProgress[] = [];
  const handle = planner.submit({
    label: 'sweep',
    owner: 'chart',
    steps: steps(5),
    onResult: (r) => void got.push(r),
    onEnd: (p) => void ends.push(p),
  });
  await settle();
  await finish(10, 'a');
  await finish(10, 'b');
  expect(planner.stop()).toBe(true);
  // The run in progress was told; its result, arriving after the stop, is not a finished one.
  expect(calls[2].signal.aborted).toBe(true);
  // Still running until that run has wound down (its threads joined): a page that read the plan
  // as over now would say done while the threads still move items (issue 43).
  await settle();
  expect(planner.progressOf('chart')!.state).toBe('running');
  expect(planner.busy()).toBe(true);
  expect(ends).toEqual([]);
  await finish(10, 'late');
  const end = await handle.finished;
  expect(got).toEqual(['a', 'b']);
  expect(end).toMatchObject({ state: 'stopped', done: 2, total: 5, stoppedBy: 'you stopped it' });
  expect(ends).toEqual([end]);
  expect(calls).toHaveLength(3);
  expect(planner.busy()).toBe(false);
});

test('a failure mid-plan names the run and why, keeps the finished results, runs nothing after', async () => {
  const { planner, calls, settle, finish } = setup();
  const got: unknown[] = [];
  const handle = planner.submit({
    label: 'sweep',
    steps: steps(4),
    onResult: (r) => void got.push(r),
  });
  await settle();
  await finish(10, 'a');
  await finish(10, 'b');
  calls[2].fail(new Error('the engine worker crashed'));
  const end = await handle.finished;
  expect(end).toMatchObject({
    state: 'failed',
    done: 2,
    total: 4,
    failure: { step: 2, label: 'run 2', message: 'the engine worker crashed' },
  });
  expect(got).toEqual(['a', 'b']);
  await settle();
  expect(calls).toHaveLength(3);
});

test('the latest plan wins: the old one stops, keeps its results and says why; no runs overlap', async () => {
  const { planner, calls, settle, finish } = setup();
  const oldResults: unknown[] = [];
  const old = planner.submit({
    label: 'Sweep',
    owner: 'chart',
    steps: steps(3),
    onResult: (r) => void oldResults.push(r),
  });
  await settle();
  await finish(10, 'old a');
  const fresh = planner.submit({ label: 'Run', owner: 'experiment', steps: steps(1) });
  expect(planner.progressOf('experiment')!.state).toBe('queued');
  await settle();
  // The old run in progress is asked to stop, and the new plan waits for it to wind down.
  expect(calls).toHaveLength(2);
  expect(calls[1].signal.aborted).toBe(true);
  await finish(5, 'old b');
  expect(calls).toHaveLength(3);
  expect(calls[2].step.label).toBe('run 0');
  expect(await old.finished).toMatchObject({
    state: 'stopped',
    done: 1,
    total: 3,
    stoppedBy: 'replaced by “Run”',
  });
  expect(oldResults).toEqual(['old a']);
  await finish(5);
  expect(await fresh.finished).toMatchObject({ state: 'done', done: 1 });
  // Each owner still shows its own newest plan.
  expect(planner.progressOf('chart')!.state).toBe('stopped');
  expect(planner.progress()!.label).toBe('Run');
});

test('a plan waiting to start that a newer one replaces never starts', async () => {
  const { planner, calls, settle, finish } = setup();
  planner.submit({ label: 'A', steps: steps(1) });
  await settle();
  const b = planner.submit({ label: 'B', steps: steps(1) });
  const c = planner.submit({ label: 'C', steps: [{ label: 'c run' }] });
  expect(await b.finished).toMatchObject({
    state: 'stopped',
    done: 0,
    stoppedBy: 'replaced by “C”',
  });
  await finish(1);
  expect(calls.map((x) => x.step.label)).toEqual(['run 0', 'c run']);
  await finish(1);
  expect((await c.finished).state).toBe('done');
});

test("stop for one owner leaves another owner's plan running", async () => {
  const { planner, settle } = setup();
  planner.submit({ label: 'race', owner: 'race', steps: steps(2) });
  await settle();
  expect(planner.stop('its view closed', 'chart')).toBe(false);
  expect(planner.progressOf('race')!.state).toBe('running');
  expect(planner.stop('its view closed', 'race')).toBe(true);
});

test('steps returned from a result are appended: the total grows', async () => {
  const { planner, calls, settle, finish } = setup();
  const handle = planner.submit({
    label: 'Size it for me',
    owner: 'sizing',
    steps: [{ label: 'measure' }],
    onResult: (_r, i) => (i === 0 ? [{ label: 'sized run' }] : undefined),
  });
  await settle();
  expect(planner.progressOf('sizing')).toMatchObject({ done: 0, total: 1 });
  await finish(10);
  expect(planner.progressOf('sizing')).toMatchObject({ done: 1, total: 2, current: 'sized run' });
  await finish(10);
  expect(await handle.finished).toMatchObject({ state: 'done', done: 2, total: 2 });
  expect(calls.map((c) => c.step.label)).toEqual(['measure', 'sized run']);
});

test('a run the engine ended by itself stops the plan, saying so', async () => {
  const { planner, settle, finish } = setup();
  const handle = planner.submit({ label: 'series', steps: steps(3) });
  await settle();
  await finish(10, null);
  expect(await handle.finished).toMatchObject({
    state: 'stopped',
    done: 0,
    stoppedBy: 'the engine stopped its run',
  });
});

test('a result the page cannot take fails the plan at that run', async () => {
  const { planner, settle, finish } = setup();
  const handle = planner.submit({
    label: 'series',
    steps: steps(2),
    onResult: () => {
      throw new Error('no such row');
    },
  });
  await settle();
  await finish(10);
  expect(await handle.finished).toMatchObject({
    state: 'failed',
    done: 1,
    failure: { step: 0, message: 'no such row' },
  });
});

test('close stops the plan in flight; later plans end at once, until it opens again', async () => {
  const { planner, calls, settle } = setup();
  const a = planner.submit({ label: 'A', steps: steps(2) });
  await settle();
  planner.close();
  expect(calls[0].signal.aborted).toBe(true);
  calls[0].finish(null);
  expect(await a.finished).toMatchObject({ state: 'stopped', stoppedBy: 'the page closed' });
  const b = planner.submit({ label: 'B', steps: steps(1) });
  expect(await b.finished).toMatchObject({ state: 'stopped', done: 0 });
  await settle();
  expect(calls).toHaveLength(1);
  planner.open();
  planner.submit({ label: 'C', steps: steps(1) });
  await settle();
  expect(calls).toHaveLength(2);
});
