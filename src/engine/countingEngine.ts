// The page's handle on the engine worker for the counting-threads experiment. At most one run is
// in flight; a start requested while a run is active or stopping is merged into one pending start
// (the latest wins). Counters are read straight from shared wasm memory (threads) or from the last
// snapshot the worker posted (single-thread fallback); nothing blocks the page.
//
// States: loading → idle → running → stopping → idle. A run is over only when the worker says
// 'stopped', which it posts after every thread has left its loop and been joined; until then the
// state is 'stopping' and the threads may still count (for 5-25 ms on two loaded cores). The
// final counts come with that message and are the run's `ended` counts from then on.
import { newEngineWorker } from './newEngineWorker';
import {
  COUNTING_SLOT_WORDS,
  type CountingParams,
  type EngineInfo,
  type FromEngine,
  type ToEngine,
} from './protocol';

export type EngineState = 'loading' | 'idle' | 'running' | 'stopping' | 'error';

export interface EngineSnapshot {
  state: EngineState;
  info: EngineInfo | null;
  params: CountingParams | null;
  error: string | null;
  /** From the last completed stop: pthread Workers alive in the pool, and how long the stop took. */
  lastStop: { poolWorkers: number; stopMs: number } | null;
  /** The last run's final counts, once it is over (null from its start until its 'stopped'). */
  ended: Float64Array | null;
}

/**
 * What the page's panel says (its data-state) for this snapshot, once the page has asked for a
 * run (`runRequested`) or not: running while a run is in flight — loading with a start pending,
 * running, or stopping, when the threads may still count — and done only once the worker has
 * joined them all.
 */
export function panelState(
  s: Pick<EngineSnapshot, 'state'>,
  runRequested: boolean,
): 'idle' | 'running' | 'done' | 'error' {
  if (s.state === 'error') return 'error';
  if (s.state === 'running' || s.state === 'stopping' || (s.state === 'loading' && runRequested))
    return 'running';
  return runRequested ? 'done' : 'idle';
}

export interface EngineOptions {
  moduleUrl: string;
  threaded: boolean;
  poolSize: number;
  /** Creates the worker; tests substitute their own. */
  createWorker?: () => Worker;
}

export class CountingEngine {
  private readonly worker: Worker;
  private snapshot: EngineSnapshot = {
    state: 'loading',
    info: null,
    params: null,
    error: null,
    lastStop: null,
    ended: null,
  };
  private pending: CountingParams | null = null;
  private listeners = new Set<(s: EngineSnapshot) => void>();
  private sharedSlots: BigUint64Array | null = null;
  private strideWords = 1;
  private lastCounts: Float64Array = new Float64Array(0);

  constructor(options: EngineOptions) {
    this.worker = (options.createWorker ?? newEngineWorker)();
    this.worker.onmessage = (e: MessageEvent<FromEngine>) => this.receive(e.data);
    this.worker.onerror = (e) =>
      this.update({ state: 'error', error: e.message || 'engine crashed' });
    this.send({
      type: 'init',
      moduleUrl: options.moduleUrl,
      threaded: options.threaded,
      poolSize: options.poolSize,
    });
  }

  get current(): EngineSnapshot {
    return this.snapshot;
  }

  subscribe(listener: (s: EngineSnapshot) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  start(params: CountingParams): void {
    const { state } = this.snapshot;
    if (state === 'idle') {
      this.send({ type: 'start', params });
      this.update({ state: 'running', params, error: null, ended: null });
    } else if (state === 'running' || state === 'stopping' || state === 'loading') {
      this.pending = params;
      if (state === 'running') this.stop(true);
    }
  }

  stop(keepPending = false): void {
    if (!keepPending) this.pending = null;
    if (this.snapshot.state !== 'running') return;
    this.send({ type: 'stop' });
    this.update({ state: 'stopping' });
  }

  /** Writes each thread's count into `out` (up to its length); returns the thread count. Once the
   * run is over these are its final counts, whatever the shared slots hold later. */
  readCounts(out: Float64Array): number {
    const params = this.snapshot.params;
    if (!params) return 0;
    const n = Math.min(params.threads, out.length);
    if (this.snapshot.ended) {
      for (let i = 0; i < n; i++) out[i] = this.snapshot.ended[i] ?? 0;
    } else if (this.sharedSlots) {
      for (let i = 0; i < n; i++)
        out[i] = Number(Atomics.load(this.sharedSlots, i * this.strideWords));
    } else {
      for (let i = 0; i < n; i++) out[i] = this.lastCounts[i] ?? 0;
    }
    return n;
  }

  dispose(): void {
    this.pending = null;
    // Terminating the engine worker also ends every pthread Worker it created.
    this.worker.terminate();
    this.listeners.clear();
  }

  private send(msg: ToEngine): void {
    this.worker.postMessage(msg);
  }

  private receive(msg: FromEngine): void {
    switch (msg.type) {
      case 'ready':
        this.update({ state: 'idle', info: msg.info });
        break;
      case 'started':
        this.strideWords = msg.strideBytes / 8;
        this.sharedSlots = this.snapshot.info?.memory
          ? new BigUint64Array(
              this.snapshot.info.memory,
              this.snapshot.info.slotsAddress,
              COUNTING_SLOT_WORDS,
            )
          : null;
        this.lastCounts = new Float64Array(msg.params.threads);
        break;
      case 'counts':
        this.lastCounts = msg.counts;
        break;
      case 'stopped':
        this.update({
          state: 'idle',
          lastStop: { poolWorkers: msg.poolWorkers, stopMs: msg.stopMs },
          ended: msg.counts,
        });
        break;
      case 'error':
        this.update({
          state: this.snapshot.info ? 'idle' : 'error',
          params: this.snapshot.state === 'running' ? null : this.snapshot.params,
          error: msg.message,
        });
        break;
    }
    if (this.snapshot.state === 'idle' && this.pending) {
      const next = this.pending;
      this.pending = null;
      this.start(next);
    }
  }

  private update(patch: Partial<EngineSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...patch };
    for (const l of this.listeners) l(this.snapshot);
  }
}
