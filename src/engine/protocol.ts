// Messages between the page and the engine worker. Commands are few and small; while a run is
// going, data flows through shared wasm memory (threads) or one snapshot per slice (single-thread).

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
  | { type: 'stop' };

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
  | { type: 'stopped'; poolWorkers: number; stopMs: number }
  | { type: 'error'; message: string };
