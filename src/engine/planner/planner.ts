// The run planner: every run the page makes is a step of a plan submitted here. One plan runs at a
// time for the whole page (the threads engine runs one run at a time, and two measurements sharing
// the visitor's cores would spoil each other), its steps one after another, each in a macrotask of
// its own so the page keeps drawing. One cancellation (stop), one progress report per plan (run k of
// n, the time left estimated from the runs so far, the current run's label).
//
// Policy: the latest plan wins. A plan submitted while another runs stops the old one, which keeps
// the results it finished and says it was replaced by the new one (by name); the new one starts once
// the old one's run in progress has wound down (its threads joined), so no two runs overlap. A plan
// waiting to start that a newer one replaces never starts. A step that throws fails its plan: the
// progress names the run and why, and the results finished before it are kept. A result that comes
// in after a stop was asked for is dropped: the run was interrupted, not finished.
//
// Headless and engine-agnostic: a step is whatever the executor runs (steps.ts has the page's kinds)
// and results go to the plan's onResult as each finishes.

/** Where a plan stands. `queued`: waiting for the plan before it to wind down. */
export type PlanState = 'queued' | 'running' | 'done' | 'stopped' | 'failed';

export interface PlanFailure {
  /** The failed step's index in the plan (0-based). */
  step: number;
  label: string;
  message: string;
}

/** What a plan's progress says; a new object on every change (a React store snapshot). */
export interface PlanProgress {
  id: number;
  owner: string | null;
  label: string;
  state: PlanState;
  /** Steps finished (their results delivered). */
  done: number;
  total: number;
  /** The step running now (null when none is). */
  current: string | null;
  /** Estimated ms until the plan ends, from the durations of its steps so far; null before the
   * first has finished and once the plan is over. */
  leftMs: number | null;
  /** ms from the first step's start to now (to the end once over). */
  elapsedMs: number;
  /** Why a stopped plan stopped (e.g. 'you stopped it', 'replaced by “Sweep”'). */
  stoppedBy: string | null;
  failure: PlanFailure | null;
}

export interface Plan<S, R = unknown> {
  /** What the plan does, in words for the page ("Sweep npTh for both layouts"). */
  label: string;
  /** Who submitted it: progressOf(owner) finds its newest plan, stop(reason, owner) stops it. */
  owner?: string;
  steps: readonly S[];
  /** Each finished step's result, in plan order. Steps returned are appended to the plan (a run
   * sized from the result of the one before, as "Size it for me" does). */
  onResult?(result: R, index: number, step: S): void | readonly S[];
  /** Once, when the plan is over (done, stopped or failed), with its final progress. */
  onEnd?(progress: PlanProgress): void;
}

export interface PlanHandle {
  readonly id: number;
  /** Stops this plan (if it is still queued or running). */
  stop(reason?: string): void;
  /** Resolves with the final progress once the plan is over. */
  readonly finished: Promise<PlanProgress>;
}

/** Runs one step; resolves with its result, or null when the signal stopped it. Throws to fail. */
export type StepExecutor<S> = (step: S, signal: AbortSignal) => Promise<unknown> | unknown;

export interface PlannerOptions<S> {
  /** Steps of one class take about as long as each other (time left is estimated per class). */
  classOf?: (step: S) => string;
  /** The clock (ms); tests pass a fake one. */
  now?: () => number;
  /** Hands the page a turn between steps (default: a macrotask). */
  yieldTurn?: () => Promise<void>;
}

interface Entry<S> {
  plan: Plan<S>;
  steps: S[];
  progress: PlanProgress;
  abort: AbortController;
  stopReason: string | null;
  startedMs: number | null;
  resolve: (p: PlanProgress) => void;
}

const macrotask = () => new Promise<void>((r) => setTimeout(r, 0));

export const STOPPED_BY_VISITOR = 'you stopped it';

export class Planner<S> {
  private nextId = 1;
  private active: Entry<S> | null = null;
  private pending: Entry<S> | null = null;
  private pumping = false;
  private closed = false;
  /** The newest plan of each owner, as last published. */
  private readonly latest = new Map<string, PlanProgress>();
  private newest: PlanProgress | null = null;
  private readonly listeners = new Set<() => void>();
  /** Finished steps' durations (ms) by class, over every plan of this page: a run of a class
   * takes about as long in the next plan as in the last. */
  private readonly durations = new Map<string, number[]>();
  private readonly classOf: (step: S) => string;
  private readonly now: () => number;
  private readonly yieldTurn: () => Promise<void>;

  constructor(
    private readonly execute: StepExecutor<S>,
    options: PlannerOptions<S> = {},
  ) {
    this.classOf = options.classOf ?? (() => 'step');
    this.now = options.now ?? (() => performance.now());
    this.yieldTurn = options.yieldTurn ?? macrotask;
  }

  /** Queues `plan` behind the one in flight, which it stops (the latest plan wins). */
  submit(plan: Plan<S, unknown>): PlanHandle {
    const id = this.nextId++;
    let resolve!: (p: PlanProgress) => void;
    const finished = new Promise<PlanProgress>((r) => (resolve = r));
    const entry: Entry<S> = {
      plan,
      steps: [...plan.steps],
      progress: {
        id,
        owner: plan.owner ?? null,
        label: plan.label,
        state: 'queued',
        done: 0,
        total: plan.steps.length,
        current: null,
        leftMs: null,
        elapsedMs: 0,
        stoppedBy: null,
        failure: null,
      },
      abort: new AbortController(),
      stopReason: null,
      startedMs: null,
      resolve,
    };
    const replaced = `replaced by “${plan.label}”`;
    if (this.pending) this.end(this.pending, 'stopped', replaced);
    if (this.active) this.requestStop(this.active, replaced);
    if (this.closed) {
      this.end(entry, 'stopped', 'the page closed');
    } else {
      this.pending = entry;
      this.publish(entry);
      void this.pump();
    }
    return { id, stop: (reason) => this.stopEntry(entry, reason), finished };
  }

  /** Stops the plan in flight and any plan waiting (only `owner`'s, when given); true if one was. */
  stop(reason = STOPPED_BY_VISITOR, owner?: string): boolean {
    let stopped = false;
    for (const e of [this.pending, this.active])
      if (e && (owner === undefined || e.plan.owner === owner)) {
        this.stopEntry(e, reason);
        stopped = true;
      }
    return stopped;
  }

  /** The newest plan `owner` submitted, as it stands (null if none). */
  progressOf(owner: string): PlanProgress | null {
    return this.latest.get(owner) ?? null;
  }

  /** The newest plan submitted by anyone. */
  progress(): PlanProgress | null {
    return this.newest;
  }

  /** Whether a plan is queued or running. */
  busy(): boolean {
    return this.active !== null || this.pending !== null;
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };

  /** Stops everything (the page went away); plans submitted until open() end at once, stopped,
   * so a late callback cannot start engines for a page nobody sees. */
  close(): void {
    this.closed = true;
    this.stop('the page closed');
  }

  /** Takes plans again after close() (a page shown again: React mounts effects twice in
   * development). */
  open(): void {
    this.closed = false;
  }

  private stopEntry(entry: Entry<S>, reason = STOPPED_BY_VISITOR): void {
    if (entry === this.pending) {
      this.pending = null;
      this.end(entry, 'stopped', reason);
    } else if (entry === this.active) this.requestStop(entry, reason);
  }

  private requestStop(entry: Entry<S>, reason: string): void {
    if (entry.abort.signal.aborted) return;
    entry.stopReason = reason;
    entry.abort.abort();
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.pending) {
        const entry = this.pending;
        this.pending = null;
        this.active = entry;
        await this.runPlan(entry);
        this.active = null;
      }
    } finally {
      this.pumping = false;
    }
  }

  private async runPlan(entry: Entry<S>): Promise<void> {
    const { plan, steps, abort } = entry;
    const signal = abort.signal;
    entry.startedMs = this.now();
    for (let i = 0; i < steps.length; i++) {
      await this.yieldTurn();
      if (signal.aborted) break;
      const step = steps[i];
      this.update(entry, { state: 'running', current: this.labelOf(step) });
      const t0 = this.now();
      let result: unknown;
      try {
        result = await this.execute(step, signal);
      } catch (e) {
        if (signal.aborted) break;
        const message = e instanceof Error ? e.message : String(e);
        return this.end(entry, 'failed', null, { step: i, label: this.labelOf(step), message });
      }
      if (signal.aborted) break;
      if (result === null || result === undefined) {
        this.requestStop(entry, 'the engine stopped its run');
        break;
      }
      this.record(step, this.now() - t0);
      this.update(entry, { done: entry.progress.done + 1, current: null });
      let more: void | readonly S[];
      try {
        more = plan.onResult?.(result, i, step);
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        return this.end(entry, 'failed', null, { step: i, label: this.labelOf(step), message });
      }
      if (more && more.length > 0 && !signal.aborted) {
        steps.push(...more);
        this.update(entry, { total: steps.length });
      }
    }
    if (signal.aborted) this.end(entry, 'stopped', entry.stopReason ?? STOPPED_BY_VISITOR);
    else this.end(entry, 'done', null);
  }

  private labelOf(step: S): string {
    const label = (step as { label?: unknown }).label;
    return typeof label === 'string' ? label : this.classOf(step);
  }

  private record(step: S, ms: number): void {
    const cls = this.classOf(step);
    const list = this.durations.get(cls) ?? [];
    list.push(ms);
    this.durations.set(cls, list);
  }

  /** ms left: each step not yet finished (the running one included) is estimated at the mean
   * duration of finished steps of its class, or of any class when none of its own has finished. */
  private leftMs(entry: Entry<S>): number | null {
    const all = [...this.durations.values()].flat();
    if (all.length === 0) return null;
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const overall = mean(all);
    let left = 0;
    for (const step of entry.steps.slice(entry.progress.done)) {
      const own = this.durations.get(this.classOf(step));
      left += own && own.length > 0 ? mean(own) : overall;
    }
    return left;
  }

  private update(entry: Entry<S>, patch: Partial<PlanProgress>): void {
    entry.progress = { ...entry.progress, ...patch };
    entry.progress = {
      ...entry.progress,
      elapsedMs: entry.startedMs === null ? 0 : this.now() - entry.startedMs,
      leftMs: this.leftMs(entry),
    };
    this.publish(entry);
  }

  private end(
    entry: Entry<S>,
    state: 'done' | 'stopped' | 'failed',
    stoppedBy: string | null,
    failure: PlanFailure | null = null,
  ): void {
    entry.progress = {
      ...entry.progress,
      state,
      current: null,
      leftMs: null,
      elapsedMs: entry.startedMs === null ? 0 : this.now() - entry.startedMs,
      stoppedBy,
      failure,
    };
    this.publish(entry);
    entry.plan.onEnd?.(entry.progress);
    entry.resolve(entry.progress);
  }

  private publish(entry: Entry<S>): void {
    const p = entry.progress;
    if (p.owner !== null) {
      const shown = this.latest.get(p.owner);
      // An owner's older plan ending after its newer one was submitted does not hide the newer.
      if (!shown || shown.id <= p.id) this.latest.set(p.owner, p);
    }
    if (!this.newest || this.newest.id <= p.id) this.newest = p;
    for (const l of [...this.listeners]) l();
  }
}
