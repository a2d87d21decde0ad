// Each kind of step on stand-ins for the page's engines: a race run gives its result, stops when
// the plan stops and fails with the engine's words; a live run is drawn by the host, whose end
// decides the step's (done: its numbers, stopped: none, error: a failure); runs, points and ratios
// go to the threads engine or the twin as their step says; a sweep's jobs become labelled points.
import { expect, test } from 'vitest';
import type { PipelineRun } from '../../../../src/engine/pipeline/pipelineRun';
import type { ThreadsEngine } from '../../../../src/engine/pipeline/threadsEngine';
import type { LiveEnd, LiveHost } from '../../../../src/engine/planner/live';
import {
  pointSteps,
  RunPlanner,
  runStep,
  type StepEngines,
} from '../../../../src/engine/planner/steps';
import type { RaceEngine, RaceListener } from '../../../../src/engine/race/raceEngine';
import type { RaceConfig, RaceResult } from '../../../../src/spec/raceConfig';
import { planSweep } from '../../../../src/engine/sweep';
import { parseExperimentSpec } from '../../../../src/spec/experimentSpec';

const spec = parseExperimentSpec({
  runtime: 'static',
  stages: [{ name: 'a', mode: 'serial-in-order', service: { kind: 'fixed', us: 100 } }],
  items: 50,
  seed: 1,
});

const unused = (what: string) => () => {
  throw new Error(`${what} was not to be used`);
};

function fakeRace() {
  const runs: Array<{ plan: RaceConfig[]; listener: RaceListener; cancelled: boolean }> = [];
  const engine: Pick<RaceEngine, 'run'> = {
    run(plan, listener) {
      const r = { plan, listener, cancelled: false };
      runs.push(r);
      return { cancel: () => (r.cancelled = true) };
    },
  };
  return { engine, runs };
}

const result = { itemsPerS: 1e6 } as unknown as RaceResult;
const config: RaceConfig = { queue: 'batch' };

test('a race step runs its one config and gives its result', async () => {
  const { engine, runs } = fakeRace();
  const engines = { threads: unused('threads'), race: () => engine, live: unused('live') };
  const got = runStep(
    { kind: 'race', label: 'batch', config },
    engines,
    new AbortController().signal,
  );
  expect(runs[0].plan).toEqual([config]);
  runs[0].listener.result(0, result);
  runs[0].listener.done({ cancelled: false, error: null });
  expect(await got).toBe(result);
});

test('a stopped race step cancels its run and gives nothing; an engine error fails it', async () => {
  const { engine, runs } = fakeRace();
  const engines = { threads: unused('threads'), race: () => engine, live: unused('live') };
  const abort = new AbortController();
  const got = runStep({ kind: 'race', label: 'batch', config }, engines, abort.signal);
  abort.abort();
  expect(runs[0].cancelled).toBe(true);
  runs[0].listener.done({ cancelled: true, error: null });
  expect(await got).toBeNull();
  const failing = runStep(
    { kind: 'race', label: 'batch', config },
    engines,
    new AbortController().signal,
  );
  runs[1].listener.done({ cancelled: false, error: 'semiItems=3 is not a whole cache line' });
  await expect(failing).rejects.toThrow('semiItems=3 is not a whole cache line');
});

/** A host that records what it shows and ends each run as the test says. */
function fakeHost() {
  const shown: Array<{ run: PipelineRun; end: (e: Partial<LiveEnd>) => void }> = [];
  const host: LiveHost = {
    show: (run) =>
      new Promise((resolve) =>
        shown.push({
          run,
          end: (e) =>
            resolve({
              state: 'done',
              summary: run.summary(),
              counters: [],
              error: null,
              ...e,
            }),
        }),
      ),
  };
  return { host, shown };
}

test('a live step shows its run on the host: done gives its numbers, stopped none, error fails', async () => {
  const { host, shown } = fakeHost();
  const engines = { threads: unused('threads'), race: unused('race'), live: () => host };
  const step = { kind: 'live', label: 'Run', spec, engine: 'simulation' } as const;
  const done = runStep(step, engines, new AbortController().signal);
  expect(shown[0].run.engine).toBe('simulation');
  shown[0].end({ state: 'done' });
  expect(await done).toMatchObject({ spec, engine: 'simulation', counters: [] });

  const abort = new AbortController();
  const stopped = runStep(step, engines, abort.signal);
  abort.abort();
  // The plan's stop stops the run itself; the host then sees it end.
  expect(shown[1].run.state()).toBe('stopped');
  shown[1].end({ state: 'stopped' });
  expect(await stopped).toBeNull();

  const failed = runStep(step, engines, new AbortController().signal);
  shown[2].end({ state: 'error', error: 'the twin deadlocked' });
  await expect(failed).rejects.toThrow('the twin deadlocked');
});

test('a run step goes to the threads engine or the twin as it says', async () => {
  const twin = await runStep(
    { kind: 'run', label: 'twin', spec, engine: 'simulation' },
    { threads: unused('threads'), race: unused('race'), live: unused('live') },
    new AbortController().signal,
  );
  expect(twin).toMatchObject({ source: 'simulation', output: null });
  const ran: string[] = [];
  const threads = {
    run: () => {
      ran.push('threads');
      return {
        state: () => 'stopped',
        stop() {},
      } as unknown as ReturnType<ThreadsEngine['run']>;
    },
  };
  const engines: StepEngines = {
    threads: () => threads,
    race: unused('race'),
    live: unused('live'),
  };
  const measured = runStep(
    { kind: 'run', label: 'measured', spec, engine: 'threads' },
    engines,
    new AbortController().signal,
  );
  expect(await measured).toBeNull();
  expect(ran).toEqual(['threads']);
});

test("a sweep's jobs become point steps, labelled with the control and how each is run", () => {
  const jobs = planSweep(
    [1, 2],
    (x) => ({ ...spec, items: 50 * x }),
    (s) => (s.items > 50 ? 'simulation' : 'threads'),
  );
  const steps = pointSteps(jobs, 'Threads on extract');
  expect(steps.map((s) => s.label)).toEqual([
    'Threads on extract = 1, measured',
    'Threads on extract = 2, simulated',
  ]);
  expect(steps[1]).toMatchObject({ kind: 'point', x: 2, engine: 'simulation', job: jobs[1] });
});

test("the page's planner runs a plan of simulated points and types their results", async () => {
  const planner = new RunPlanner({
    threads: unused('threads'),
    race: unused('race'),
    live: unused('live'),
  });
  const ys: number[] = [];
  const handle = planner.submit({
    label: 'Sweep',
    steps: pointSteps(
      planSweep(
        [1, 2],
        () => spec,
        () => 'simulation',
      ),
      'x',
    ),
    onResult: (p) => void ys.push(p.y),
  });
  expect(await handle.finished).toMatchObject({ state: 'done', done: 2, total: 2 });
  // A fixed-service chain of one stage: 100 µs an item, 10,000 items/s, every repeat.
  expect(ys).toEqual([10_000, 10_000]);
});
