// A component's handle on the page's run planner: start a plan as this component's (its owner),
// read the progress of its newest plan, stop it. A component's plan stops when the component goes
// away (a sweep nobody can see stops), unless it says otherwise (the queue race, shared by the
// race views, outlives each of them).
import { useCallback, useEffect, useId, useMemo, useSyncExternalStore } from 'react';
import type { Plan, PlanHandle, PlanProgress } from '../../engine/planner/planner';
import type { PlanStep, RunPlanner, StepResult } from '../../engine/planner/steps';

export interface PlanControl {
  /** The newest plan this owner started, as it stands; null before the first. */
  progress: PlanProgress | null;
  /** A plan of this owner is queued or running. */
  running: boolean;
  start<S extends PlanStep>(plan: Omit<Plan<S, StepResult<S>>, 'owner'>): PlanHandle;
  stop(): void;
}

export function usePlan(
  planner: RunPlanner,
  /** A name shared with other views (the race); default: this component's own. */
  owner?: string,
  { stopOnUnmount = true } = {},
): PlanControl {
  const ownId = useId();
  const key = owner ?? ownId;
  const progress = useSyncExternalStore(planner.subscribe, () => planner.progressOf(key));
  useEffect(
    () => (stopOnUnmount ? () => void planner.stop('its view closed', key) : undefined),
    [planner, key, stopOnUnmount],
  );
  const start = useCallback(
    <S extends PlanStep>(plan: Omit<Plan<S, StepResult<S>>, 'owner'>) =>
      planner.submit({ ...plan, owner: key }),
    [planner, key],
  );
  const running = progress?.state === 'running' || progress?.state === 'queued';
  return useMemo(
    () => ({ progress, running, start, stop: () => void planner.stop(undefined, key) }),
    [progress, running, start, planner, key],
  );
}
