// The model chart's points and sweep for one lesson: which engine measures each swept x (planned
// once per change of the controls, so the page can say what a sweep will do), the finished runs
// and sweep points on the chart, and the sweep as a plan on the page's planner (its progress, its
// Stop; the points it finished stay when it stops or fails).
import { useCallback, useMemo, useState } from 'react';
import { visitorCores } from '../../engine/isolation';
import { chooseEngine, type EngineContext } from '../../engine/pipeline/chooseEngine';
import type { EngineKind, RunSummary } from '../../engine/pipeline/pipelineRun';
import { pointSteps, type RunPlanner } from '../../engine/planner/steps';
import { planSweep, setsThreadCount, type ChartPoint, type SweepJob } from '../../engine/sweep';
import { applyControls, getAtPath, type ControlValues } from '../../lessons/controls';
import type { Lesson } from '../../lessons/loadLessons';
import type { ExperimentSpec } from '../../spec/experimentSpec';
import { usePlan } from '../plan/usePlan';
import { sweepValues } from './modelCurves';

export type LessonSweep = ReturnType<typeof useSweep>;

export function useSweep(
  lesson: Lesson,
  values: ControlValues,
  engineContext: EngineContext,
  planner: RunPlanner,
) {
  const [points, setPoints] = useState<ChartPoint[]>([]);
  // The session's, not a view's: it goes on while the presenter shows a step without the chart.
  const sweep = usePlan(planner, 'model-chart', { stopOnUnmount: false });

  const control = lesson.controls.find((c) => c.id === lesson.sweep) ?? null;
  const range = control?.kind === 'range' ? control : null;
  const threadSweep = range !== null && setsThreadCount(range.targets);
  const plan: SweepJob[] | null = useMemo(
    () =>
      range
        ? planSweep(
            sweepValues(range),
            (x) =>
              applyControls(lesson.experimentSource, lesson.controls, { ...values, [range.id]: x }),
            (spec) => chooseEngine(spec, engineContext).engine,
            threadSweep ? visitorCores() : undefined,
          )
        : null,
    [lesson, values, range, threadSweep, engineContext],
  );

  /** A finished single run becomes a point at its value of the swept control. */
  const addRunPoint = useCallback(
    (summary: RunSummary, source: EngineKind, spec: ExperimentSpec) => {
      const x = range && getAtPath(spec, range.targets[0]);
      if (typeof x === 'number') setPoints((ps) => [...ps, { x, y: summary.itemsPerSec, source }]);
    },
    [range],
  );

  const start = () => {
    if (!plan || !range) return;
    sweep.start({
      label: `Sweep ${range.label.toLowerCase()}`,
      steps: pointSteps(plan, range.label),
      onResult: (p) => setPoints((ps) => [...ps, p]),
    });
  };

  return {
    /** The swept control (a range control), or null when the lesson sweeps nothing. */
    control: range,
    threadSweep,
    plan,
    points,
    /** The sweep's plan: its progress, whether it runs, its Stop. */
    progress: sweep,
    running: sweep.running,
    addRunPoint,
    start,
    clear: () => setPoints([]),
  };
}
