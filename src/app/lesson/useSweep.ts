// The model chart's points and sweep for one lesson: which engine measures each swept x (planned
// once per change of the controls, so the page can say what a sweep will do), the finished runs
// and sweep points on the chart, and one sweep at a time, ended when the page goes away.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { visitorCores } from '../../engine/isolation';
import { chooseEngine, type EngineContext } from '../../engine/pipeline/chooseEngine';
import type { EngineKind, RunSummary } from '../../engine/pipeline/pipelineRun';
import {
  planSweep,
  runSweep,
  setsThreadCount,
  type ChartPoint,
  type SweepJob,
} from '../../engine/sweep';
import { applyControls, getAtPath, type ControlValues } from '../../lessons/controls';
import type { Lesson } from '../../lessons/loadLessons';
import type { ExperimentSpec } from '../../spec/experimentSpec';
import { sweepValues } from './modelCurves';
import type { LessonRun } from './useLessonRun';

export type LessonSweep = ReturnType<typeof useSweep>;

export function useSweep(lesson: Lesson, values: ControlValues, engineContext: EngineContext) {
  const [points, setPoints] = useState<ChartPoint[]>([]);
  const [cancel, setCancel] = useState<(() => void) | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Leaving the page ends a sweep in progress (its cancel is the effect's cleanup).
  useEffect(() => cancel ?? undefined, [cancel]);

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

  const start = (run: LessonRun) => {
    if (!plan) return;
    cancel?.();
    run.stop();
    setError(null);
    const stop = runSweep(
      plan,
      run.threads,
      (p) => setPoints((ps) => [...ps, p]),
      (e) => {
        setCancel(null);
        setError(e);
      },
    );
    setCancel(() => stop);
  };

  return {
    /** The swept control (a range control), or null when the lesson sweeps nothing. */
    control: range,
    threadSweep,
    plan,
    points,
    running: cancel !== null,
    error,
    addRunPoint,
    start,
    /** Ends a sweep in progress (its points so far stay). */
    cancel: () => {
      cancel?.();
      setCancel(null);
    },
    clear: () => setPoints([]),
  };
}
