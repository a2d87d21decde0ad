// A plan of live runs (each drawn by the lesson's views like any run, on the engine the page would
// choose for it), its finished runs kept by key: the balancing lesson's "both layouts", "one thread
// per core vs oversubscribed" and "measure, then run the sized configuration".
import { useState } from 'react';
import type { LiveRun } from '../../engine/planner/live';
import type { LiveStep } from '../../engine/planner/steps';
import type { ExperimentSpec } from '../../spec/experimentSpec';
import { usePlan } from '../plan/usePlan';
import { useLesson } from './lessonContext';

export interface KeyedRun {
  key: string;
  /** What the progress report calls this run. */
  label: string;
  spec: ExperimentSpec;
}

export type KeyedResults = Record<string, LiveRun>;

export function useLivePlan() {
  const { planner, engineFor } = useLesson();
  const plan = usePlan(planner);
  const [results, setResults] = useState<KeyedResults>({});
  const stepOf = (r: KeyedRun): LiveStep & { key: string } => ({
    kind: 'live',
    label: r.label,
    spec: r.spec,
    engine: engineFor(r.spec).engine,
    key: r.key,
  });

  /** Runs `runs` in order as one plan named `label`. `next`, given the results so far after each
   * run, may return more runs for the same plan. */
  const start = (
    label: string,
    runs: KeyedRun[],
    next?: (key: string, results: KeyedResults) => KeyedRun[] | undefined,
  ) => {
    let got: KeyedResults = {};
    setResults(got);
    plan.start({
      label,
      steps: runs.map(stepOf),
      onResult: (run, _i, { key }) => {
        got = { ...got, [key]: run };
        setResults(got);
        return next?.(key, got)?.map(stepOf);
      },
    });
  };

  return { plan, results, start };
}
