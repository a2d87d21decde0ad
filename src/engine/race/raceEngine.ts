// The page's handle on the queue race: an engine worker of its own (the threaded wasm module)
// running one plan of race configs at a time. A plan requested while another runs cancels it and
// starts once every thread of the old one has been joined (later requests merge: the latest
// wins). dispose() terminates the worker, which ends every pthread Worker it started — the page
// calls it when the visitor leaves, so no race thread outlives the lesson.
import { newEngineWorker } from '../newEngineWorker';
import type { FromEngine, ToEngine } from '../protocol';
import type { LayoutQueue, QueueLayout, RaceConfig, RaceResult } from '../../spec/raceConfig';

export interface RaceListener {
  /** One run of the plan ended (in plan order; cancelled runs are not reported). */
  result(index: number, result: RaceResult): void;
  /** The plan ended: finished, cancelled, or stopped by an error (a config the C++ rejected, or
   * the engine failing to load). */
  done(outcome: { cancelled: boolean; error: string | null }): void;
}

interface Plan {
  id: number;
  plan: RaceConfig[];
  listener: RaceListener;
  cancelled: boolean;
}

export class RaceEngine {
  private readonly worker: Worker;
  private ready = false;
  private failure: string | null = null;
  private nextId = 1;
  private active: Plan | null = null;
  private pending: Plan | null = null;
  private layoutRequests: Array<{
    resolve: (l: Record<LayoutQueue, QueueLayout>) => void;
    reject: (e: Error) => void;
  }> = [];

  constructor(moduleUrl: string, poolSize: number, createWorker: () => Worker = newEngineWorker) {
    this.worker = createWorker();
    this.worker.onmessage = (e: MessageEvent<FromEngine>) => this.receive(e.data);
    this.worker.onerror = (e) => this.fail(e.message || 'the engine worker crashed');
    this.send({ type: 'init', moduleUrl, threaded: true, poolSize });
  }

  /** Runs `plan` once the engine is ready and no other plan runs; returns its cancel handle. */
  run(plan: RaceConfig[], listener: RaceListener): { cancel: () => void } {
    const p: Plan = { id: this.nextId++, plan, listener, cancelled: false };
    if (this.pending) this.finish(this.pending, { cancelled: true, error: null });
    this.pending = p;
    if (this.failure) {
      this.pending = null;
      this.finish(p, { cancelled: false, error: this.failure });
    } else if (this.active) this.cancel(this.active);
    else this.startPending();
    return { cancel: () => this.cancel(p) };
  }

  /** The field layouts of the compared queues, from the C++ objects. */
  layouts(): Promise<Record<LayoutQueue, QueueLayout>> {
    return new Promise((resolve, reject) => {
      if (this.failure) return reject(new Error(this.failure));
      this.layoutRequests.push({ resolve, reject });
      if (this.ready) this.send({ type: 'queue-layouts' });
    });
  }

  /** Ends the worker and every thread it started; plans in flight read as cancelled. */
  dispose(): void {
    this.worker.terminate();
    for (const p of [this.active, this.pending])
      if (p) this.finish(p, { cancelled: true, error: null });
    this.active = this.pending = null;
    const requests = this.layoutRequests;
    this.layoutRequests = [];
    for (const r of requests) r.reject(new Error('the race engine was closed'));
  }

  private cancel(p: Plan): void {
    if (p.cancelled) return;
    p.cancelled = true;
    if (p === this.pending) {
      this.pending = null;
      this.finish(p, { cancelled: true, error: null });
    } else if (p === this.active) this.send({ type: 'race-cancel', id: p.id });
  }

  private startPending(): void {
    if (!this.ready || this.active || !this.pending) return;
    this.active = this.pending;
    this.pending = null;
    this.send({ type: 'race-start', id: this.active.id, plan: this.active.plan });
  }

  private finish(p: Plan, outcome: { cancelled: boolean; error: string | null }): void {
    p.cancelled = true;
    p.listener.done(outcome);
  }

  private fail(message: string): void {
    this.failure = message;
    for (const p of [this.active, this.pending])
      if (p) this.finish(p, { cancelled: false, error: message });
    this.active = this.pending = null;
    const requests = this.layoutRequests;
    this.layoutRequests = [];
    for (const r of requests) r.reject(new Error(message));
  }

  private send(msg: ToEngine): void {
    this.worker.postMessage(msg);
  }

  private receive(msg: FromEngine): void {
    if (msg.type === 'ready') {
      if (!msg.info.threaded) return this.fail('the engine loaded without threads');
      this.ready = true;
      if (this.layoutRequests.length) this.send({ type: 'queue-layouts' });
    } else if (msg.type === 'race-result') {
      if (this.active?.id === msg.id && !this.active.cancelled)
        this.active.listener.result(msg.index, msg.result);
    } else if (msg.type === 'race-done') {
      if (this.active?.id === msg.id) {
        const p = this.active;
        this.active = null;
        p.listener.done({ cancelled: msg.cancelled || p.cancelled, error: msg.error });
      }
    } else if (msg.type === 'queue-layouts') {
      const requests = this.layoutRequests;
      this.layoutRequests = [];
      for (const r of requests) r.resolve(msg.layouts);
    } else if (msg.type === 'error') {
      return this.fail(msg.message);
    }
    this.startPending();
  }
}
