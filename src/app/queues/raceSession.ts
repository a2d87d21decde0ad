// The queue race of one lesson page: every run measured on this visit and the plans that measured
// them (the race's views compare runs of one plan, paired by round), and the panels' plans, each a
// plan of race runs on the page's planner (one plan at a time for the whole page: a race never
// shares the cores with another run). The lesson's race panels share the session
// (app/lesson/useRaceSession.ts enters each): a panel's plan goes on while another race panel
// replaces it (a presenter step, the race → the fences table), and when the last one is gone its
// plan stops and the race engine's worker and threads end. That waits until the commit is over, so
// a panel that replaces another in one commit keeps the race in flight.
import { threadsUnavailableReason } from '../../engine/isolation';
import type { PageEngines } from '../../engine/planner/pageEngines';
import type { PlanHandle } from '../../engine/planner/planner';
import type { RaceStep, RunPlanner } from '../../engine/planner/steps';
import {
  raceKey,
  type LayoutQueue,
  type QueueLayout,
  type RaceConfig,
} from '../../spec/raceConfig';
import type { RacePlanInfo, RaceRun } from '../../live/raceSummary';
import { RACE_ROUNDS, raceRunLabel } from './racePlans';

/** Which panel started a plan: each shows its own plan's progress. */
export type RaceJob = 'race' | 'fences' | 'false-sharing' | 'semi' | 'speedup';

/** The planner's owner name of a panel's plans. */
export const raceOwner = (job: RaceJob) => `race:${job}`;

export interface RaceSessionState {
  /** Why races cannot run here (no cross-origin isolation), or null. */
  unavailable: string | null;
  /** Every run measured on this visit, in the order they ended, with its plan and round. */
  results: RaceRun[];
  /** Every plan started on this visit, oldest first, with what it planned to measure. */
  plans: RacePlanInfo[];
  /** Why the queues' layouts could not be read (the engine failing to load), or null. */
  error: string | null;
  layouts: Record<LayoutQueue, QueueLayout> | null;
}

export class RaceSession {
  private state: RaceSessionState;
  private readonly listeners = new Set<() => void>();
  private handle: PlanHandle | null = null;
  private wantLayouts = false;
  private plans = 0;
  /** Race panels mounted now. */
  private users = 0;

  constructor(
    private readonly planner: RunPlanner,
    private readonly engines: Pick<PageEngines, 'race' | 'releaseRace'>,
    unavailable = threadsUnavailableReason(),
  ) {
    this.state = { unavailable, results: [], plans: [], error: null, layouts: null };
  }

  readonly subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };
  readonly snapshot = () => this.state;

  /** Runs `plan` (`rounds` rounds of equal length, racePlans.ts) for `job` as a plan named
   * `label`; the planner stops whatever plan was running (the latest wins). */
  run(job: RaceJob, label: string, plan: RaceConfig[], rounds = RACE_ROUNDS): void {
    if (this.state.unavailable) return;
    const planId = ++this.plans;
    this.update({
      plans: [...this.state.plans, { id: planId, keys: new Set(plan.map(raceKey)) }],
    });
    const perRound = Math.max(1, plan.length / rounds);
    const steps = plan.map((config, index): RaceStep & { round: number } => {
      const round = Math.floor(index / perRound);
      return { kind: 'race', label: raceRunLabel(config, round), config, round };
    });
    this.handle = this.planner.submit({
      label,
      owner: raceOwner(job),
      steps,
      onResult: (result, _i, { round }) =>
        this.update({ results: [...this.state.results, { ...result, plan: planId, round }] }),
    });
  }

  /** Asks the engine for the compared queues' layouts once (they never change). */
  requestLayouts(): void {
    if (this.state.unavailable || this.wantLayouts) return;
    this.wantLayouts = true;
    this.engines
      .race()
      .layouts()
      .then((layouts) => this.update({ layouts }))
      .catch((e: Error) => {
        this.wantLayouts = false;
        this.update({ error: e.message });
      });
  }

  /** A race panel mounted; returns its unmount. */
  enter(): () => void {
    this.users++;
    return () => {
      this.users--;
      // After this commit's effects: a panel mounting in the same commit takes the race over.
      queueMicrotask(() => {
        if (this.users === 0) this.release();
      });
    };
  }

  /** No race panel is left: the race in flight stops (it says so) and the engine's worker and
   * threads end; a later race starts a new engine. */
  private release(): void {
    this.handle?.stop('no race view is on screen');
    this.handle = null;
    this.engines.releaseRace();
    if (!this.state.layouts) this.wantLayouts = false;
  }

  private update(patch: Partial<RaceSessionState>): void {
    this.state = { ...this.state, ...patch };
    for (const l of [...this.listeners]) l();
  }
}
