// One lesson's state on a page: control values (from the URL, written back to it), the spec they
// give and the engine chosen for it, the page's run planner (every run the page makes is a plan
// submitted to it), the live run, the model chart's sweep, the values measured for the paper rows,
// and recording and replaying runs — everything LessonContext hands the lesson's components. The
// lesson page and the presenter share it.
import { useCallback, useMemo, useState } from 'react';
import { canUseThreads, visitorCores } from '../../engine/isolation';
import { chooseEngine, type EngineContext } from '../../engine/pipeline/chooseEngine';
import { applyControls, type ControlValues } from '../../lessons/controls';
import type { Lesson } from '../../lessons/loadLessons';
import type { ExperimentSpec } from '../../spec/experimentSpec';
import { sameSpec } from '../../spec/sameSpec';
import type { LessonContextValue } from './lessonContext';
import { usePagePlanner } from '../plan/usePagePlanner';
import { RaceSession } from '../queues/raceSession';
import { useRecordReplay } from './replay/useRecordReplay';
import { useLessonRun, type FinishedRun, type RunEvent } from './useLessonRun';
import { StageSweeps } from './stageSweeps';
import { useSweep } from './useSweep';
import { rememberMeasured } from '../measuredStore';

/** Finished runs kept for the lesson's components (side-by-side views, points). */
const MAX_RUNS_KEPT = 200;
let nextRunId = 1;

export function useLessonSession(
  lesson: Lesson,
  initialValues: ControlValues,
  preferSimulation: boolean,
  /** Called with the new values whenever a control changes (the page writes its URL). */
  onValues: (values: ControlValues) => void,
): LessonContextValue & { reset: () => void } {
  const [values, setValues] = useState<ControlValues>(initialValues);
  const [measured, setMeasured] = useState<Record<string, number>>({});
  const engineContext: EngineContext = useMemo(
    () => ({ isolated: canUseThreads(), cores: visitorCores(), preferSimulation }),
    [preferSimulation],
  );
  const { spec, specError } = useMemo(() => {
    try {
      return {
        spec: applyControls(lesson.experimentSource, lesson.controls, values),
        specError: null,
      };
    } catch (e) {
      return { spec: null, specError: (e as Error).message };
    }
  }, [lesson, values]);
  const engine = useMemo(() => spec && chooseEngine(spec, engineContext), [spec, engineContext]);
  const engineFor = useCallback(
    (other: ExperimentSpec) => chooseEngine(other, engineContext),
    [engineContext],
  );
  const page = usePagePlanner();
  const sweep = useSweep(lesson, values, engineContext, page.planner);
  const [runs, setRuns] = useState<FinishedRun[]>([]);
  const [listeners] = useState(() => new Set<(event: RunEvent) => void>());
  const [stageSweeps] = useState(() => new StageSweeps());
  const [races] = useState(() => new RaceSession(page.planner, page.engines));
  // The runs (by their spec object) started at the controls' settings, as against a view's own
  // run of another spec (lesson 3's other layout): the panel pairs such a run's numbers with the
  // controls, and says so when the controls move after it. Weak: a run's spec goes with the run.
  const [controlsRuns] = useState(() => new WeakSet<ExperimentSpec>());
  const run = useLessonRun(page, (event) => {
    if (event.type === 'started' && spec && sameSpec(event.spec, spec))
      controlsRuns.add(event.spec);
    if (event.type === 'ended' && event.state === 'done') {
      const finished = event.run;
      sweep.addRunPoint(finished.summary, finished.engine, finished.spec);
      setRuns((rs) => [...rs.slice(-(MAX_RUNS_KEPT - 1)), { ...finished, id: nextRunId++ }]);
    }
    for (const listener of [...listeners]) listener(event);
  });
  const onRunEvent = useCallback(
    (listener: (event: RunEvent) => void) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    [listeners],
  );

  const setAll = (next: ControlValues) => {
    setValues(next);
    onValues(next);
  };
  const replay = useRecordReplay({ lesson, values, setValues: setAll, spec, engine, run });
  const reportMeasured = useCallback(
    (rowId: string, value: number) => {
      setMeasured((m) => ({ ...m, [rowId]: value }));
      rememberMeasured(lesson.slug, rowId, value);
    },
    [lesson.slug],
  );
  /** A control moved by the visitor (or a presenter's step) ends a replay first: the replay's
   * views are the recording's, made at its own settings, and must not sit beside other ones. */
  const move = (next: ControlValues) => {
    if (replay.active) replay.exit();
    setAll(next);
  };
  return {
    lesson,
    values,
    change: (id, value) => move({ ...values, [id]: value }),
    changeMany: (changes) => move({ ...values, ...changes }),
    spec,
    specError,
    engine,
    engineFor,
    planner: page.planner,
    run,
    sweep,
    measured,
    reportMeasured,
    replay,
    runs,
    onRunEvent,
    stageSweeps,
    races,
    ranAtControls: (runSpec: ExperimentSpec) => controlsRuns.has(runSpec),
    /** Stops any plan (a run, a sweep), clears the chart and measurements, controls to defaults. */
    reset: () => {
      page.planner.stop('the page was reset');
      run.clear();
      sweep.clear();
      setMeasured({});
      setRuns([]);
      setAll(Object.fromEntries(lesson.controls.map((c) => [c.id, c.defaultValue])));
    },
  };
}
