// Drives the queue race through the wasm exports (pl_race_*, wasm/src/bindings.cpp): start a run
// without blocking, poll until its threads exit, join, read the result. Used by the engine worker
// and the wasm tests.
import { check, withCString, type PipelabModule } from '../wasmExports';
import type { LayoutQueue, QueueLayout, RaceConfig, RaceResult } from '../../spec/raceConfig';

/** Parses the config in C++ (a bad value is named) and starts the run's threads. */
export function startWasmRace(mod: PipelabModule, config: RaceConfig): void {
  withCString(mod, JSON.stringify(config), (ptr) => check(mod, mod._pl_race_start(ptr)));
}

/** Polls (never blocks) until every thread of the run has exited, joins them, reads the result. */
export function whenRaceFinished(mod: PipelabModule, pollMs = 2): Promise<RaceResult> {
  return new Promise((resolve, reject) => {
    const poll = () => {
      if (mod._pl_race_alive() > 0) return void setTimeout(poll, pollMs);
      mod._pl_race_join();
      try {
        resolve(JSON.parse(textOrError(mod, mod._pl_race_result())) as RaceResult);
      } catch (e) {
        reject(e instanceof Error ? e : new Error(String(e)));
      }
    };
    poll();
  });
}

export function requestRaceCancel(mod: PipelabModule): void {
  mod._pl_race_request_cancel();
}

/** The C++ layout of one of the compared queues (real offsets). */
export function queueLayout(mod: PipelabModule, queue: LayoutQueue): QueueLayout {
  return withCString(mod, queue, (ptr) =>
    JSON.parse(textOrError(mod, mod._pl_queue_layout(ptr))),
  ) as QueueLayout;
}

function textOrError(mod: PipelabModule, ptr: number): string {
  if (ptr === 0) throw new Error(mod.UTF8ToString(mod._pl_last_error()));
  return mod.UTF8ToString(ptr);
}
