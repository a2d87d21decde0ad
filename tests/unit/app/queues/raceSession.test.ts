// The race session on the page's planner: a panel's plan is a plan of race runs, each result kept
// with its plan and round; when the last race panel goes (not when one replaces another in the
// same commit) the race in flight stops, saying why, and the race engine is released.
import { expect, test } from 'vitest';
import { RaceSession } from '../../../../src/app/queues/raceSession';
import { RunPlanner } from '../../../../src/engine/planner/steps';
import type { RaceConfig, RaceResult } from '../../../../src/spec/raceConfig';
import type { RaceEngine, RaceListener } from '../../../../src/engine/race/raceEngine';

function setup() {
  const runs: Array<{ config: RaceConfig; listener: RaceListener; cancelled: boolean }> = [];
  const race: Pick<RaceEngine, 'run' | 'layouts'> = {
    run(plan, listener) {
      const r = { config: plan[0], listener, cancelled: false };
      runs.push(r);
      return { cancel: () => (r.cancelled = true) };
    },
    layouts: () => new Promise(() => {}),
  };
  const released: string[] = [];
  const unused = () => {
    throw new Error('not used by a race');
  };
  const planner = new RunPlanner({ threads: unused, live: unused, race: () => race });
  const session = new RaceSession(
    planner,
    { race: () => race as RaceEngine, releaseRace: () => void released.push('released') },
    null,
  );
  /** A few turns of the event loop: the planner takes one between runs. */
  const settle = async () => {
    for (let i = 0; i < 3; i++) await new Promise((r) => setTimeout(r, 0));
  };
  /** Ends the newest run with `itemsPerS`. */
  const finish = async (itemsPerS: number) => {
    const r = runs.at(-1)!;
    r.listener.result(0, { config: r.config, itemsPerS } as unknown as RaceResult);
    r.listener.done({ cancelled: false, error: null });
    await settle();
  };
  return { planner, session, runs, released, settle, finish };
}

test("a panel's plan runs each config as a run of the plan; results keep their plan and round", async () => {
  const { planner, session, runs, settle, finish } = setup();
  const a: RaceConfig = { queue: 'batch' };
  const b: RaceConfig = { queue: 'lamport' };
  session.run('fences', 'Measure the fence ratios', [a, b, b, a], 2);
  await settle();
  expect(planner.progressOf('race:fences')).toMatchObject({
    state: 'running',
    total: 4,
    current: 'batch (round 1)',
  });
  for (const rate of [1, 2, 3, 4]) await finish(rate);
  expect(runs.map((r) => r.config.queue)).toEqual(['batch', 'lamport', 'lamport', 'batch']);
  const { results, plans } = session.snapshot();
  expect(results.map((r) => [r.itemsPerS, r.plan, r.round])).toEqual([
    [1, 1, 0],
    [2, 1, 0],
    [3, 1, 1],
    [4, 1, 1],
  ]);
  expect(plans).toHaveLength(1);
  expect(planner.progressOf('race:fences')!.state).toBe('done');
});

test('the last race panel leaving stops the race and releases the engine; a panel replacing another does not', async () => {
  const { planner, session, runs, released, settle, finish } = setup();
  const leaveRace = session.enter();
  session.run('race', 'Race the queues', [{ queue: 'batch' }, { queue: 'mutex' }]);
  await settle();
  // The race panel gives way to the fences table in one commit: the race goes on.
  leaveRace();
  const leaveFences = session.enter();
  await settle();
  expect(runs[0].cancelled).toBe(false);
  await finish(5);
  expect(planner.progressOf('race:race')).toMatchObject({ state: 'running', done: 1 });
  leaveFences();
  await settle();
  expect(runs[1].cancelled).toBe(true);
  runs[1].listener.done({ cancelled: true, error: null });
  await settle();
  expect(planner.progressOf('race:race')).toMatchObject({
    state: 'stopped',
    done: 1,
    stoppedBy: 'no race view is on screen',
  });
  expect(released).toEqual(['released']);
  expect(session.snapshot().results).toHaveLength(1);
});
