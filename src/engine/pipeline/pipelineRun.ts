// What the page holds while a pipeline experiment runs, whichever engine runs it.
import type { TelemetryTap } from '../../telemetry';

export type EngineKind = 'threads' | 'simulation';

/** What a number from this engine is (DESIGN.md: every number says where it came from): real
 * threads measure, the discrete-event twin simulates. */
export function dataKindOf(engine: EngineKind): 'measured' | 'simulated' {
  return engine === 'threads' ? 'measured' : 'simulated';
}
/**
 * A run's life: running ⇄ paused, then done (every item out), stopped or error. A stop asked of a
 * run whose threads exist is `stopping` until every thread has left its loop and been joined:
 * until then they may still move items and write telemetry, so a run reads as ended (and its
 * numbers as final) only once nothing can change them any more.
 */
export type RunState = 'running' | 'paused' | 'stopping' | 'done' | 'stopped' | 'error';

/** Whether the run's threads may still move items (and its numbers change): running, paused
 * (threads parked, the run not over) or stopping. */
export const inFlight = (state: RunState | 'idle'): state is 'running' | 'paused' | 'stopping' =>
  state === 'running' || state === 'paused' || state === 'stopping';

export interface RunSummary {
  /** Items out of the pipeline when the run is complete (items × the stages' emits). */
  items: number;
  /** Items out so far. */
  completed: number;
  /** µs from start to the last item out (or to now while running). */
  elapsedUs: number;
  itemsPerSec: number;
}

/**
 * What a finished two-stage run produced, read from the C++ runtime (threads engine only: the
 * twin formats no text). Output: the FNV-1a checksum of the text the writer wrote (16 hex
 * digits), its bytes and batches; input: the records' values summed (16 hex digits), records,
 * bad and misplaced records.
 */
export type PipelineOutput =
  | { checksum: string; bytes: number; batches: number }
  | { sum: string; records: number; bad: number; misplaced: number };

export interface PipelineRun {
  readonly engine: EngineKind;
  readonly workers: number;
  /** Where the telemetry is; null until the engine has started the run. */
  tap(): TelemetryTap | null;
  state(): RunState;
  /** True while a live run waits for its engine (the module loading, its threads being created,
   * the run before it being joined); engines that start at once leave it out. */
  starting?(): boolean;
  /** The run's clock: µs since it started (paused time excluded). */
  nowUs(): number;
  /** The page read events up to run time `us` (their own clock): a run whose clock the page only
   * estimates moves it up to that, never back. Engines whose clock is the events' leave it out. */
  seen?(us: number): void;
  /** Called once per animation frame with performance.now(); the simulation advances here. */
  tick(realNowMs: number): void;
  pause(): void;
  resume(): void;
  stop(): void;
  summary(): RunSummary;
  error(): string | null;
  /** A finished two-stage run's product on real threads; null otherwise (and on the twin). */
  output(): PipelineOutput | null;
}
