// The queue race of one lesson page: one engine (a worker of its own, created on the first race),
// one plan at a time, and every run measured on this visit. The lesson's race panels share it
// (useRaceSession counts them): the last one to unmount disposes the engine, which terminates its
// worker and every pthread it started, so leaving the page mid-race leaves no thread running.
// A panel that replaces another in one commit (a presenter step, the race → the fences table)
// keeps the session and the race in flight: disposal waits until the commit is over.
import { useEffect, useState, useSyncExternalStore } from 'react';
import { threadsUnavailableReason, visitorCores } from '../../engine/isolation';
import { RaceEngine } from '../../engine/race/raceEngine';
import {
  raceKey,
  type LayoutQueue,
  type QueueLayout,
  type RaceConfig,
} from '../../spec/raceConfig';
import type { RacePlanInfo, RaceRun } from '../../live/raceSummary';
import { wasmModuleUrl } from '../../engine/wasmUrl';
import { RACE_ROUNDS } from './racePlans';

/** Which panel started the plan in flight. */
export type RaceJob = 'race' | 'fences' | 'false-sharing' | 'semi' | 'speedup';

export interface RaceSessionState {
  /** Why races cannot run here (no cross-origin isolation), or null. */
  unavailable: string | null;
  running: { job: RaceJob; done: number; total: number } | null;
  /** Every run measured on this visit, in the order they ended, with its plan and round. */
  results: RaceRun[];
  /** Every plan started on this visit, oldest first, with what it planned to measure. */
  plans: RacePlanInfo[];
  /** The last plan's error (a config the C++ rejected, the engine failing to load). */
  error: string | null;
  layouts: Record<LayoutQueue, QueueLayout> | null;
}

export class RaceSession {
  private state: RaceSessionState = {
    unavailable: threadsUnavailableReason(),
    running: null,
    results: [],
    plans: [],
    error: null,
    layouts: null,
  };
  private readonly listeners = new Set<() => void>();
  private engine: RaceEngine | null = null;
  private handle: { cancel: () => void } | null = null;
  private wantLayouts = false;
  private plans = 0;

  constructor(private readonly createEngine: () => RaceEngine = defaultEngine) {}

  readonly subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
  readonly snapshot = () => this.state;

  /** Runs `plan` (`rounds` rounds of equal length, racePlans.ts) for `job`, cancelling the plan
   * in flight (the latest request wins). */
  run(job: RaceJob, plan: RaceConfig[], rounds = RACE_ROUNDS): void {
    if (this.state.unavailable) return;
    this.handle?.cancel();
    const planId = ++this.plans;
    this.update({
      running: { job, done: 0, total: plan.length },
      error: null,
      plans: [...this.state.plans, { id: planId, keys: new Set(plan.map(raceKey)) }],
    });
    const perRound = Math.max(1, plan.length / rounds);
    const handle = this.getEngine().run(plan, {
      result: (index, result) => {
        const running = this.state.running;
        const run: RaceRun = { ...result, plan: planId, round: Math.floor(index / perRound) };
        this.update({
          results: [...this.state.results, run],
          running: running && { ...running, done: running.done + 1 },
        });
      },
      done: ({ error }) => {
        if (this.handle !== handle) return;
        this.handle = null;
        this.update({ running: null, error });
      },
    });
    this.handle = handle;
  }

  cancel(): void {
    this.handle?.cancel();
  }

  /** Asks the engine for the compared queues' layouts once (they never change). */
  requestLayouts(): void {
    if (this.state.unavailable || this.wantLayouts) return;
    this.wantLayouts = true;
    this.getEngine()
      .layouts()
      .then((layouts) => this.update({ layouts }))
      .catch((e: Error) => this.update({ error: e.message }));
  }

  /** Ends the engine (and the plan in flight: the session says so, it is not left "running");
   * a later run starts a new engine. */
  dispose(): void {
    this.handle = null;
    this.engine?.dispose();
    this.engine = null;
    if (this.state.running) this.update({ running: null });
    this.listeners.clear();
  }

  private getEngine(): RaceEngine {
    this.engine ??= this.createEngine();
    return this.engine;
  }

  private update(patch: Partial<RaceSessionState>): void {
    this.state = { ...this.state, ...patch };
    for (const l of this.listeners) l();
  }
}

function defaultEngine(): RaceEngine {
  // A core per thread of the longest chain a panel runs is not guaranteed: the pool starts at
  // the visitor's cores and grows while the engine worker waits in its event loop.
  return new RaceEngine(wasmModuleUrl('pipelab-web-mt.js'), visitorCores());
}

let shared: { session: RaceSession; users: number } | null = null;

/** The page's race session, shared by every panel mounted at once. */
export function useRaceSession(): [RaceSessionState, RaceSession] {
  const [session] = useState(() => {
    shared ??= { session: new RaceSession(), users: 0 };
    return shared.session;
  });
  useEffect(() => {
    if (!shared || shared.session !== session) shared = { session, users: 0 };
    shared.users++;
    return () => {
      if (!shared || shared.session !== session) return;
      if (--shared.users > 0) return;
      // After this commit's effects: a panel mounting in the same commit takes the session over.
      queueMicrotask(() => {
        if (shared?.session !== session || shared.users > 0) return;
        session.dispose();
        shared = null;
      });
    };
  }, [session]);
  const state = useSyncExternalStore(session.subscribe, session.snapshot);
  return [state, session];
}
