// The engine worker's side of the queue race: runs a plan of race configs one after another
// (each: start the threads, poll until they exit, join, post the result), one plan at a time;
// a cancel stops the run in progress and the rest of the plan. It never blocks on the threads:
// extra pthread Workers only start once the engine worker is back in its event loop.
import type { PipelabModule } from '../wasmExports';
import type { FromEngine, RaceToEngine } from '../protocol';
import {
  LAYOUT_QUEUES,
  type LayoutQueue,
  type QueueLayout,
  type RaceConfig,
} from '../../spec/raceConfig';
import { queueLayout, requestRaceCancel, startWasmRace, whenRaceFinished } from './wasmRace';

type Post = (msg: FromEngine) => void;

let active: { id: number; cancelled: boolean } | null = null;

async function runPlan(mod: PipelabModule, id: number, plan: RaceConfig[], post: Post) {
  const run = { id, cancelled: false };
  active = run;
  let error: string | null = null;
  try {
    for (let index = 0; index < plan.length && !run.cancelled; index++) {
      startWasmRace(mod, plan[index]);
      const result = await whenRaceFinished(mod);
      if (!result.cancelled) post({ type: 'race-result', id, index, result });
    }
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
  }
  active = null;
  post({ type: 'race-done', id, cancelled: run.cancelled, error });
}

/** Handles one race message; `mod` is null until the module has loaded. */
export function handleRaceMessage(mod: PipelabModule | null, msg: RaceToEngine, post: Post): void {
  if (!mod) throw new Error('engine not initialised');
  if (!mod._pl_threaded()) throw new Error('the queue race needs the threaded build');
  if (msg.type === 'race-start') {
    // The page runs one plan at a time (RaceEngine): it cancels and waits for race-done first.
    if (active) throw new Error('a race is running: cancel it first');
    void runPlan(mod, msg.id, msg.plan, post);
  } else if (msg.type === 'race-cancel') {
    if (active && active.id === msg.id) {
      active.cancelled = true;
      requestRaceCancel(mod);
    }
  } else {
    post({
      type: 'queue-layouts',
      layouts: Object.fromEntries(LAYOUT_QUEUES.map((q) => [q, queueLayout(mod, q)])) as Record<
        LayoutQueue,
        QueueLayout
      >,
    });
  }
}
