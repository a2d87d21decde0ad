// Hand-written types for the C exports of wasm/src/bindings.cpp and the Emscripten module object.

/** The Emscripten module as PipeLab uses it (3.1.6, MODULARIZE). */
export interface PipelabModule {
  HEAPU8: Uint8Array;
  UTF8ToString(ptr: number): string;
  /** Present in threaded builds: Emscripten's pool of pthread Workers. */
  PThread?: { unusedWorkers: unknown[]; runningWorkers: unknown[] };
  _pl_last_error(): number;
  _pl_threaded(): number;
  _pl_hardware_concurrency(): number;
  _pl_counting_max_threads(): number;
  _pl_counting_start(threads: number, padded: number, workUs: number): number;
  _pl_counting_request_stop(): void;
  _pl_counting_alive(): number;
  _pl_counting_join(): void;
  _pl_counting_run_slice(threads: number, padded: number, workUs: number, sliceUs: number): number;
  _pl_counting_slots(): number;
  _pl_counting_stride_bytes(): number;
  _pl_counting_iterations_per_us(): number;
  _malloc(bytes: number): number;
  _free(ptr: number): void;
  stringToUTF8(text: string, ptr: number, maxBytes: number): void;
  lengthBytesUTF8(text: string): number;
  _pl_pipeline_create(specJsonPtr: number): number;
  _pl_pipeline_start(): number;
  _pl_pipeline_finished(): number;
  _pl_pipeline_request_cancel(): void;
  /** Workers park at their next item boundary; returns at once. */
  _pl_pipeline_pause(): void;
  _pl_pipeline_resume(): void;
  /** 1 once every running worker has parked (the run clock then stands still). */
  _pl_pipeline_paused(): number;
  _pl_pipeline_join(): void;
  _pl_pipeline_workers(): number;
  _pl_pipeline_ring(worker: number): number;
  _pl_pipeline_counters(): number;
  _pl_pipeline_completed(): number;
  _pl_pipeline_elapsed_us(): number;
  /** Phaser runs: the task and stream board's address; 0 for other runtimes. */
  _pl_pipeline_board(): number;
  /** Why the last run stopped early (a stalled phaser run), or "" (a C string, after finish). */
  _pl_pipeline_error(): number;
  _pl_pipeline_now_us(): number;
  /** The queue race (race/race_config.hpp): 0, or -1 with the message in pl_last_error. */
  _pl_race_start(configJsonPtr: number): number;
  _pl_race_request_cancel(): void;
  _pl_race_alive(): number;
  _pl_race_join(): void;
  /** JSON text of the joined run's result, or 0 (see pl_last_error). */
  _pl_race_result(): number;
  /** JSON text of a queue's field offsets, or 0 for an unknown queue (see pl_last_error). */
  _pl_queue_layout(queuePtr: number): number;
  /** JSON text: what a finished two-stage run produced ("null" otherwise); see PipelineOutput. */
  _pl_pipeline_output(): number;
}

export type ModuleFactory = (overrides?: Record<string, unknown>) => Promise<PipelabModule>;

/** Throws the C++ error message when an export returned -1. */
export function check(mod: PipelabModule, status: number): void {
  if (status !== 0) throw new Error(mod.UTF8ToString(mod._pl_last_error()));
}

/** Calls `f` with `text` as a NUL-terminated UTF-8 string in wasm memory, then frees it. */
export function withCString<T>(mod: PipelabModule, text: string, f: (ptr: number) => T): T {
  const bytes = mod.lengthBytesUTF8(text) + 1;
  const ptr = mod._malloc(bytes);
  try {
    mod.stringToUTF8(text, ptr, bytes);
    return f(ptr);
  } finally {
    mod._free(ptr);
  }
}
