// A race panel's handle on the page's race session (app/queues/raceSession.ts): the session's
// state, and the plan of this panel's job (its progress and Stop; `start` runs a plan for it). The
// panel counts as one of the session's users while it is mounted.
import { useEffect, useSyncExternalStore } from 'react';
import type { RaceConfig } from '../../spec/raceConfig';
import { usePlan, type PlanControl } from '../plan/usePlan';
import {
  raceOwner,
  type RaceJob,
  type RaceSession,
  type RaceSessionState,
} from '../queues/raceSession';
import { useLesson } from './lessonContext';

/** The page's race session, shared by every race panel mounted at once, and the plan of `job`
 * (its progress and Stop; `start` runs a plan for it). */
export function useRaceSession(job: RaceJob): {
  state: RaceSessionState;
  session: RaceSession;
  plan: PlanControl;
  start: (label: string, configs: RaceConfig[]) => void;
} {
  const { races: session, planner } = useLesson();
  useEffect(() => session.enter(), [session]);
  const state = useSyncExternalStore(session.subscribe, session.snapshot);
  const plan = usePlan(planner, raceOwner(job), { stopOnUnmount: false });
  return {
    state,
    session,
    plan,
    start: (label, configs) => session.run(job, label, configs),
  };
}
