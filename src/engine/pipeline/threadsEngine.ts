// The threads engine for lessons: the page's handle on the engine worker that runs ExperimentSpecs
// on the C++ runtimes. At most one run in flight; a run requested while another is active cancels
// it and starts once every thread of the old one has been joined (later requests merge: the latest
// wins). Telemetry is read straight from the shared wasm memory — nothing is copied while running.
// Pause is cooperative: the C++ workers finish the item in hand and block; the page's clock stops
// at once and, when the engine acknowledges (every thread parked), moves up to the C++ run clock's
// value, which stood still from then on — so both clocks leave the pause out.
// Stop is cooperative too: a run the engine was asked to start is `stopping` until the engine
// reports every thread joined ('pipeline-finished'); only a run still waiting its turn stops at
// once, as no thread of it exists.
import { itemsOut, type ExperimentSpec } from '../../spec/experimentSpec';
import { copyTap, readStageCounters } from '../../telemetry';
import { newEngineWorker } from '../newEngineWorker';
import type { FromEngine, ToEngine } from '../protocol';
import type { PipelineOutput, PipelineRun, RunState, RunSummary } from './pipelineRun';
import type { TelemetryTap } from '../../telemetry';
import { wasmTap } from './wasmPipeline';

export class ThreadsEngine {
  private readonly worker: Worker;
  private memory: SharedArrayBuffer | null = null;
  private active: ThreadsRun | null = null;
  private pending: ThreadsRun | null = null;
  private failure: string | null = null;

  constructor(moduleUrl: string, poolSize: number, createWorker: () => Worker = newEngineWorker) {
    this.worker = createWorker();
    this.worker.onmessage = (e: MessageEvent<FromEngine>) => this.receive(e.data);
    this.worker.onerror = (e) => this.fail(e.message || 'the engine worker crashed');
    this.send({ type: 'init', moduleUrl, threaded: true, poolSize });
  }

  /** Returns the run at once; it starts when the engine is ready and no other run is live. */
  run(spec: ExperimentSpec): ThreadsRun {
    const run = new ThreadsRun(spec, this);
    if (this.pending) this.pending.markStopped();
    this.pending = run;
    if (this.active) this.active.stop();
    else this.startPending();
    if (this.failure) run.fail(this.failure);
    return run;
  }

  /** Ends the worker and its threads; runs still waiting on it read as stopped. */
  dispose(): void {
    this.worker.terminate();
    this.active?.markStopped();
    this.pending?.markStopped();
    this.active = this.pending = null;
  }

  /** @internal */
  send(msg: ToEngine): void {
    this.worker.postMessage(msg);
  }

  /** @internal Takes `run` out of the queue if it is still waiting its turn (no thread of it
   * exists); false when the engine was already asked to start it. */
  withdraw(run: ThreadsRun): boolean {
    if (this.pending !== run) return false;
    this.pending = null;
    return true;
  }

  private startPending(): void {
    if (!this.memory || this.active || !this.pending) return;
    this.active = this.pending;
    this.pending = null;
    this.send({ type: 'pipeline-start', spec: this.active.spec });
  }

  private fail(message: string): void {
    this.failure = message;
    this.active?.fail(message);
    this.pending?.fail(message);
    this.active = this.pending = null;
  }

  private receive(msg: FromEngine): void {
    if (msg.type === 'ready') {
      this.memory = msg.info.memory;
      if (!this.memory) return this.fail('the engine loaded without shared memory');
    } else if (msg.type === 'pipeline-started') {
      this.active?.started(wasmTap(this.memory!, msg.layout));
    } else if (msg.type === 'pipeline-paused') {
      this.active?.pauseAcknowledged(msg.nowUs);
    } else if (msg.type === 'pipeline-finished') {
      this.active?.finished(msg.completed, msg.elapsedUs, msg.cancelled, msg.output, msg.error);
      this.active = null;
    } else if (msg.type === 'error') {
      if (this.active) {
        this.active.fail(msg.message);
        this.active = null;
      } else this.fail(msg.message);
    }
    this.startPending();
  }
}

export class ThreadsRun implements PipelineRun {
  readonly engine = 'threads' as const;
  readonly workers: number;
  private telemetry: TelemetryTap | null = null;
  private runState: RunState = 'running';
  /** The running clock: run time `clockBaseUs` at performance.now() = `clockBaseMs` (null until
   * the engine started the run). */
  private clockBaseMs: number | null = null;
  private clockBaseUs = 0;
  /** The clock's value while paused (and after a stop from pause). */
  private frozenUs: number | null = null;
  private endUs: number | null = null;
  /** The runtime's own count of items out, once it finished without an error (else null). */
  private completed: number | null = null;
  private message: string | null = null;
  private product: PipelineOutput | null = null;

  constructor(
    readonly spec: ExperimentSpec,
    private readonly engine_: ThreadsEngine,
  ) {
    this.workers = spec.threads;
  }

  tap(): TelemetryTap | null {
    return this.telemetry;
  }
  state(): RunState {
    return this.runState;
  }
  starting(): boolean {
    return this.telemetry === null && (this.runState === 'running' || this.runState === 'paused');
  }
  nowUs(): number {
    if (this.endUs !== null) return this.endUs;
    if (this.frozenUs !== null) return this.frozenUs;
    if (this.clockBaseMs === null) return 0;
    return this.clockBaseUs + (performance.now() - this.clockBaseMs) * 1000;
  }
  tick(): void {}
  /** The page's clock starts when the page hears the run started, some ms after the C++ clock
   * (40 ms on two busy cores): counters sampled at the page's time came out stamped before the
   * events they count. The events' times are the C++ clock's, so the newest one read is a floor. */
  seen(us: number): void {
    if (this.clockBaseMs === null || this.endUs !== null) return;
    if (this.frozenUs !== null) this.frozenUs = Math.max(this.frozenUs, us);
    else this.clockBaseUs += Math.max(0, us - this.nowUs());
  }
  /** Threads finish the item in hand, then block until resume or stop. Before the engine has
   * started the run, the request waits and is sent once its threads exist. */
  pause(): void {
    if (this.runState !== 'running') return;
    this.frozenUs = this.nowUs();
    this.runState = 'paused';
    if (this.telemetry) this.engine_.send({ type: 'pipeline-pause' });
  }
  resume(): void {
    if (this.runState !== 'paused') return;
    this.runState = 'running';
    if (this.clockBaseMs !== null) {
      this.clockBaseUs = this.frozenUs ?? this.clockBaseUs;
      this.clockBaseMs = performance.now();
    }
    this.frozenUs = null;
    if (this.telemetry) this.engine_.send({ type: 'pipeline-resume' });
  }
  /** Also ends a paused run (its clock stays where the pause stopped it). A run whose threads
   * may exist is `stopping` until the engine has joined them all (finished()). */
  stop(): void {
    if (this.runState !== 'running' && this.runState !== 'paused') return;
    if (this.engine_.withdraw(this)) {
      this.runState = 'stopped';
      return;
    }
    this.runState = 'stopping';
    if (this.telemetry) this.engine_.send({ type: 'pipeline-cancel' });
  }
  summary(): RunSummary {
    const elapsedUs = this.nowUs();
    // Live: the last stage's items out. Once finished: the runtime's own count, which also counts
    // items that leave elsewhere (a phaser ring's hops, the sieve's multiples, items bypassing a
    // last stage).
    const out = this.completed ?? (this.telemetry ? this.lastStageOut() : 0);
    return {
      items: itemsOut(this.spec),
      completed: out,
      elapsedUs,
      itemsPerSec: elapsedUs > 0 ? (out / elapsedUs) * 1e6 : 0,
    };
  }
  error(): string | null {
    return this.message;
  }
  output(): PipelineOutput | null {
    return this.product;
  }

  /** @internal */
  started(tap: TelemetryTap): void {
    this.telemetry = tap;
    this.clockBaseMs = performance.now();
    // Stopped or paused while its threads were being created: tell them now that they exist.
    if (this.runState === 'stopping') this.engine_.send({ type: 'pipeline-cancel' });
    else if (this.runState === 'paused') this.engine_.send({ type: 'pipeline-pause' });
  }
  /** @internal Every thread parked; the C++ clock stopped at `cppNowUs`. The page's clock started
   * later than the C++ one and kept running while the threads finished their items: catch up
   * (never back: the clock only moves forward). */
  pauseAcknowledged(cppNowUs: number): void {
    if (this.runState !== 'paused' || this.frozenUs === null) return;
    this.frozenUs = Math.max(this.frozenUs, cppNowUs);
  }
  /** @internal Every thread of the run has exited and been joined; `error` says why the runtime
   * stopped it early (a stalled phaser graph), or is "". */
  finished(
    completed: number,
    elapsedUs: number,
    cancelled: boolean,
    output: PipelineOutput | null = null,
    error = '',
  ): void {
    this.endUs = elapsedUs > 0 ? elapsedUs : this.nowUs();
    // This is the run's last state. The engine starts the next run in the same wasm memory as
    // soon as this returns, possibly before the page has read this run's last frame.
    if (this.telemetry) this.telemetry = copyTap(this.telemetry);
    if (error) return this.fail(error);
    this.completed = completed;
    this.product = output;
    // A paused run can still finish: its last items were in hand when the pause came.
    if (this.runState === 'running' || this.runState === 'paused')
      this.runState = cancelled ? 'stopped' : 'done';
    else if (this.runState === 'stopping') this.runState = 'stopped';
  }
  /** @internal The run never started, or its threads are gone with the engine's worker. */
  markStopped(): void {
    this.runState = 'stopped';
    this.endUs ??= this.nowUs();
  }
  /** @internal */
  fail(message: string): void {
    this.message = message;
    this.runState = 'error';
    this.endUs ??= this.nowUs();
  }

  private lastStageOut(): number {
    const t = this.telemetry!;
    return readStageCounters(t.buffer, t.countersOffset, t.stages)[t.stages - 1].itemsOut;
  }
}
