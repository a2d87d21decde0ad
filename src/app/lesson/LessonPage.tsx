// A lesson: its prose (rendered at build time) with the registered components placed where the
// lesson file says (::experiment, ::pipeline, ::timeline, ::steals, ::model-chart), all driven by
// one experiment whose controls live in the URL.
import 'katex/dist/katex.min.css';
import { memo, useCallback, useEffect, useMemo, useState } from 'react';
import { chooseEngine } from '../../engine/pipeline/chooseEngine';
import { STEAL_WINDOW_US } from '../../engine/pipeline/liveState';
import type { EngineKind, RunSummary } from '../../engine/pipeline/pipelineRun';
import { canUseThreads, visitorCores } from '../../engine/isolation';
import { applyControls, getAtPath, type ControlValues } from '../../lessons/lessonFormat';
import type { Lesson } from '../../lessons/loadLessons';
import type { ExperimentSpec } from '../../spec/experimentSpec';
import { ModelChart } from '../../views/ModelChart';
import { PipelineView } from '../../views/PipelineView';
import { StealView } from '../../views/StealView';
import { Timeline } from '../../views/Timeline';
import { emptyStageCounters } from '../../telemetry';
import { replaceQuery } from '../route';
import { ExperimentPanel } from './ExperimentPanel';
import { readControlValues } from './lessonControls';
import { modelCurves, sweepValues } from './modelCurves';
import { planSweep, runSweep, setsThreadCount, SWEEP_REPEATS, type SweepJob } from './sweep';
import { useLessonRun, WINDOW_US, type ChartPoint } from './useLessonRun';

/** Skips frames whose lanes did not change (they are rebuilt at 10 Hz, see useLessonRun). */
const LiveTimeline = memo(Timeline);
/** Redrawn only when its curves or points change, not on every frame of a run. */
const StillModelChart = memo(ModelChart);
/** Wide enough for six stage boxes and the model chart's curve labels. */
const CHART_WIDTH = 900;

function engineContext(preferSimulation: boolean) {
  return {
    isolated: canUseThreads(),
    cores: visitorCores(),
    preferSimulation,
  };
}

/** What the sweep will do on this engine, in words: how many points run on real threads and how
 * many on the twin, and why. */
function sweepHint(plan: SweepJob[], threadSweep: boolean, engineReason: string): string {
  const measured = plan.filter((j) => j.engine === 'threads').length;
  const simulated = plan.length - measured;
  const repeats = `Each point is the middle of ${SWEEP_REPEATS} runs, its bar spanning the slowest to the fastest.`;
  if (measured === 0)
    return `This sweep simulates all ${plan.length} points on the discrete-event twin (${engineReason}). ${repeats}`;
  const why = threadSweep
    ? ` (up to your ${visitorCores()} cores: the models assume a core per thread)`
    : '';
  const rest = simulated > 0 ? ` and simulates the other ${simulated}` : '';
  return `This sweep measures ${measured} of its ${plan.length} points on real threads${why}, with fewer items each,${rest}; each point says which. ${repeats}`;
}

export function LessonPage({
  lesson,
  query,
  pageParams,
}: {
  lesson: Lesson;
  query: URLSearchParams;
  /** The page's own parameters besides the controls (default: a lesson page's). */
  pageParams?: readonly string[];
}) {
  const initial = useMemo(
    () =>
      pageParams
        ? readControlValues(lesson.controls, query, 'a parameter of this page', pageParams)
        : readControlValues(lesson.controls, query),
    [lesson, query, pageParams],
  );
  const [values, setValues] = useState<ControlValues>(initial.values);
  const [points, setPoints] = useState<ChartPoint[]>([]);
  const [sweeping, setSweeping] = useState<(() => void) | null>(null);
  // Leaving the page ends a sweep in progress (its cancel is the effect's cleanup).
  useEffect(() => sweeping ?? undefined, [sweeping]);
  const preferSimulation = query.get('engine') === 'simulation';

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
  const engine = useMemo(
    () => spec && chooseEngine(spec, engineContext(preferSimulation)),
    [spec, preferSimulation],
  );
  const [sweepError, setSweepError] = useState<string | null>(null);
  const stageNames = useMemo(() => spec?.stages.map((s) => s.name) ?? [], [spec]);
  const sweepControl = lesson.controls.find((c) => c.id === lesson.sweep) ?? null;
  const threadSweep = sweepControl?.kind === 'range' && setsThreadCount(sweepControl.targets);
  // Model curves solve queueing models at every swept point: once per change of the controls.
  const curves = useMemo(
    () =>
      sweepControl &&
      modelCurves(lesson.experimentSource, lesson.controls, values, lesson.models, sweepControl),
    [lesson, values, sweepControl],
  );

  const onFinished = useCallback(
    (summary: RunSummary, source: EngineKind, ranSpec: ExperimentSpec) => {
      if (!sweepControl || sweepControl.kind !== 'range') return;
      const x = getAtPath(ranSpec, sweepControl.targets[0]);
      if (typeof x !== 'number') return;
      setPoints((ps) => [...ps, { x, y: summary.itemsPerSec, source }]);
    },
    [sweepControl],
  );
  const run = useLessonRun(onFinished);

  const change = (id: string, value: number | string) => {
    const next = { ...values, [id]: value };
    setValues(next);
    replaceQuery(`/lessons/${lesson.slug}`, {
      ...next,
      ...(preferSimulation ? { engine: 'simulation' } : {}),
    });
  };

  // Which engine measures each swept x: planned once per change of the controls, so the hint
  // below says what this sweep will really do.
  const plan = useMemo(
    () =>
      sweepControl?.kind === 'range'
        ? planSweep(
            sweepValues(sweepControl),
            (x) =>
              applyControls(lesson.experimentSource, lesson.controls, {
                ...values,
                [sweepControl.id]: x,
              }),
            (specX) => chooseEngine(specX, engineContext(preferSimulation)).engine,
            threadSweep ? visitorCores() : undefined,
          )
        : null,
    [lesson, values, sweepControl, threadSweep, preferSimulation],
  );

  const sweep = () => {
    if (!plan) return;
    sweeping?.();
    run.stop();
    const cancel = runSweep(
      plan,
      run.threads,
      (p) => setPoints((ps) => [...ps, p]),
      (error) => {
        setSweeping(null);
        setSweepError(error);
      },
    );
    setSweeping(() => cancel);
  };

  const view = run.view;
  const live = view?.live;
  const source = view?.engine ?? 'simulation';
  const slot = (name: string) => {
    switch (name) {
      case 'experiment':
        return (
          <ExperimentPanel
            controls={lesson.controls}
            values={values}
            onChange={change}
            spec={spec}
            specError={specError}
            engine={engine}
            run={view}
            models={lesson.models}
            onRun={() => spec && engine && run.start(spec, engine.engine)}
            onPause={run.pause}
            onResume={run.resume}
            onStop={run.stop}
          />
        );
      case 'pipeline':
        return spec ? (
          <PipelineView
            runtime={spec.runtime}
            stages={spec.stages}
            counters={view?.counters.length ? view.counters : spec.stages.map(emptyStageCounters)}
            busyByStage={live?.busyByStage ?? spec.stages.map(() => 0)}
            queueCapacity={spec.queue.capacity}
            workerStage={live?.workerStage}
            runState={view?.state === 'running' || view?.state === 'paused' ? view.state : 'ended'}
            source={source}
            width={CHART_WIDTH}
          />
        ) : null;
      case 'timeline':
        return spec && live ? (
          <LiveTimeline
            lanes={live.lanes}
            stageNames={stageNames}
            nowUs={live.lanesNowUs}
            windowUs={WINDOW_US}
            source={source}
            width={CHART_WIDTH}
          />
        ) : (
          <p className="hint">Run the experiment to see each thread's timeline.</p>
        );
      case 'steals':
        return live ? (
          <StealView
            dequeLengths={live.dequeLengths}
            steals={live.steals.map((s) => ({
              thief: s.thief,
              victim: s.victim,
              ageMs: (live.nowUs - s.timeUs) / 1000,
              count: s.count,
            }))}
            fadeMs={STEAL_WINDOW_US / 1000}
            stealCount={live.stealCount}
            source={source}
          />
        ) : (
          <p className="hint">Run the experiment to see the steals.</p>
        );
      case 'model-chart':
        return spec && sweepControl ? (
          <div className="model-chart-block">
            <StillModelChart
              xLabel={sweepControl.label}
              yLabel="throughput (items/s)"
              width={CHART_WIDTH}
              curves={curves ?? []}
              points={points}
              currentX={
                typeof values[sweepControl.id] === 'number'
                  ? (values[sweepControl.id] as number)
                  : undefined
              }
            />
            <div className="buttons">
              <button onClick={sweep} disabled={sweeping !== null} data-testid="sweep">
                {sweeping ? 'Sweeping…' : `Sweep ${sweepControl.label.toLowerCase()}`}
              </button>
              <button onClick={() => setPoints([])}>Clear points</button>
            </div>
            {plan && (
              <p className="hint" data-testid="sweep-hint">
                {sweepHint(plan, threadSweep, engine?.reason ?? '')}
              </p>
            )}
            {sweepError && (
              <p role="alert" className="notice error">
                {sweepError}
              </p>
            )}
          </div>
        ) : null;
      default:
        return null;
    }
  };

  return (
    <main className="page lesson">
      <p className="crumbs">
        <a href="#/">PipeLab</a> › {lesson.number > 0 ? `Lesson ${lesson.number}` : 'Experiment'}
      </p>
      <h1>{lesson.title}</h1>
      {initial.errors.map((e) => (
        <p key={e} role="alert" className="notice error">
          {e}
        </p>
      ))}
      {lesson.blocks.map((b, i) =>
        b.kind === 'html' ? (
          <div key={i} className="prose" dangerouslySetInnerHTML={{ __html: b.html }} />
        ) : (
          <div key={i} className={`slot slot-${b.name}`} data-component={b.name}>
            {slot(b.name)}
          </div>
        ),
      )}
    </main>
  );
}
