// Messages between the page and the engine worker. Commands are few and small; while a run is
// going, data flows through shared wasm memory (threads) or one snapshot per slice (single-thread).

import type { ExperimentSpec } from '../spec/experimentSpec';
import type { LayoutQueue, QueueLayout, RaceConfig, RaceResult } from '../spec/raceConfig';
import type { PipelineOutput } from './pipeline/pipelineRun';

/** Byte offsets of a run's rings and counters inside wasm memory (stable for the run). */
export interface WasmTapLayout {
  workers: number;
  ringOffsets: number[];
  countersOffset: number;
  stages: number;
  /** Phaser runs: the task and stream board's offset; 0 for other runtimes. */
  boardOffset: number;
}

/** The C++ counting slots: 64 threads × 128 bytes (a padded slot owns a line pair), in u64 words. */
export const COUNTING_SLOT_WORDS = (64 * 128) / 8;

export interface CountingParams {
  /** Threads to start, 1..64. */
  threads: number;
  /** true: each counter on its own 128-byte line; false: counters side by side (8 bytes apart). */
  padded: boolean;
  /** Busy work between two counts, in µs (0..1000). */
  workUs: number;
}

export type ToEngine =
  | { type: 'init'; moduleUrl: string; threaded: boolean; poolSize: number }
  | { type: 'start'; params: CountingParams }
  | { type: 'stop' }
  /** Lessons: run an ExperimentSpec on the C++ runtimes (already validated on the page). */
  | { type: 'pipeline-start'; spec: ExperimentSpec }
  | { type: 'pipeline-cancel' }
  /** Workers park at their next item boundary (also honoured by a run whose threads are still
   * starting); acknowledged by 'pipeline-paused'. Cancel ends a paused run. */
  | { type: 'pipeline-pause' }
  | { type: 'pipeline-resume' }
  | RaceToEngine;

/** The queue race (src/engine/race): run a plan of configs one after another, cancel it, or ask
 * for the compared queues' field layouts. */
export type RaceToEngine =
  | { type: 'race-start'; id: number; plan: RaceConfig[] }
  | { type: 'race-cancel'; id: number }
  | { type: 'queue-layouts' };

export interface EngineInfo {
  threaded: boolean;
  hardwareConcurrency: number;
  maxThreads: number;
  iterationsPerUs: number;
  /** Threads builds: the wasm memory, read directly by the page. */
  memory: SharedArrayBuffer | null;
  slotsAddress: number;
}

export type FromEngine =
  | { type: 'ready'; info: EngineInfo }
  | { type: 'started'; params: CountingParams; strideBytes: number }
  /** Single-thread builds only: counts after each slice (the page cannot share memory). */
  | { type: 'counts'; counts: Float64Array }
  /** Every counting thread has left its loop and been joined (single-thread: the slices have
   * ended); `counts` are their final counts, read after that, so the page draws the run's end
   * from them and not from a frame it sampled while the threads still counted. */
  | { type: 'stopped'; poolWorkers: number; stopMs: number; counts: Float64Array }
  /** The run's threads are starting; its telemetry is at these offsets of `memory`. */
  | { type: 'pipeline-started'; layout: WasmTapLayout }
  /** Every running thread of the run has parked; the run clock stopped at `nowUs`. */
  | { type: 'pipeline-paused'; nowUs: number }
  /** Every thread of the run has exited and been joined. */
  | {
      type: 'pipeline-finished';
      completed: number;
      elapsedUs: number;
      cancelled: boolean;
      /** What a two-stage run produced (null for the other runtimes and cancelled runs). */
      output: PipelineOutput | null;
      /** Why the run stopped early (a phaser graph that stalled), or "". */
      error: string;
    }
  /** One run of race `id` ended (cancelled runs are not reported). */
  | { type: 'race-result'; id: number; index: number; result: RaceResult }
  /** Race `id` ended: every thread joined; `error` names a config the C++ rejected. */
  | { type: 'race-done'; id: number; cancelled: boolean; error: string | null }
  | { type: 'queue-layouts'; layouts: Record<LayoutQueue, QueueLayout> }
  | { type: 'error'; message: string };
