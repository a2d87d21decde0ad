// Runs a lesson's experiment: at most one run in flight (a new Run replaces the old), read once
// per animation frame through the telemetry tap and folded into the views' live state; finished
// runs become points for the model chart.
import { useCallback, useEffect, useRef, useState } from 'react';
import { advanceLiveState, emptyLiveState, type LiveState } from '../../engine/pipeline/liveState';
import type {
  EngineKind,
  PipelineRun,
  RunState,
  RunSummary,
} from '../../engine/pipeline/pipelineRun';
import { SimulationRun } from '../../engine/pipeline/simulationRun';
import { ThreadsEngine } from '../../engine/pipeline/threadsEngine';
import { wasmModuleUrl } from '../../engine/wasmUrl';
import { readTap } from '../../engine/pipeline/telemetryTap';
import type { ExperimentSpec } from '../../spec/experimentSpec';
import type { StageCounters } from '../../telemetry';

/** The timeline shows this much run time. */
export const WINDOW_US = 2_000_000;

export interface ChartPoint {
  x: number;
  y: number;
  min?: number;
  max?: number;
  source: EngineKind;
}

export interface LessonRunView {
  engine: EngineKind | null;
  state: RunState | 'idle';
  live: LiveState;
  counters: StageCounters[];
  summary: RunSummary | null;
  dropped: number;
  error: string | null;
}

const idle = (spec: ExperimentSpec, workers: number): LessonRunView => ({
  engine: null,
  state: 'idle',
  live: emptyLiveState(workers, spec.stages.length),
  counters: [],
  summary: null,
  dropped: 0,
  error: null,
});

export function useLessonRun(
  onFinished: (summary: RunSummary, engine: EngineKind, spec: ExperimentSpec) => void,
) {
  const runRef = useRef<{ run: PipelineRun; spec: ExperimentSpec } | null>(null);
  const threadsRef = useRef<ThreadsEngine | null>(null);
  const [view, setView] = useState<LessonRunView | null>(null);
  const finished = useRef(onFinished);
  useEffect(() => {
    finished.current = onFinished;
  });

  useEffect(() => {
    let frame = 0;
    const tick = () => {
      const current = runRef.current;
      if (current) {
        const { run, spec } = current;
        try {
          run.tick(performance.now());
          const tap = run.tap();
          const tapFrame = tap ? readTap(tap) : null;
          const state = run.state();
          setView((prev) => ({
            engine: run.engine,
            state,
            live: advanceLiveState(
              prev?.live ?? emptyLiveState(run.workers, spec.stages.length),
              tapFrame?.events ?? [],
              run.nowUs(),
              WINDOW_US,
            ),
            counters: tapFrame?.counters ?? [],
            summary: run.summary(),
            dropped: tapFrame?.dropped ?? 0,
            error: run.error(),
          }));
          if (state === 'done') {
            finished.current(run.summary(), run.engine, spec);
            runRef.current = null;
          } else if (state === 'stopped' || state === 'error') runRef.current = null;
        } catch (e) {
          runRef.current = null;
          setView((prev) =>
            prev ? { ...prev, state: 'error', error: (e as Error).message } : prev,
          );
        }
      }
      frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => {
      cancelAnimationFrame(frame);
      runRef.current?.run.stop();
      runRef.current = null;
      // Ends the engine worker and every thread it started.
      threadsRef.current?.dispose();
      threadsRef.current = null;
    };
  }, []);

  /** The threads engine, created on first use (loading the wasm module takes a moment). */
  const threads = useCallback(() => {
    threadsRef.current ??= new ThreadsEngine(
      wasmModuleUrl('pipelab-web-mt.js'),
      navigator.hardwareConcurrency || 2,
    );
    return threadsRef.current;
  }, []);

  const start = useCallback(
    (spec: ExperimentSpec, engine: EngineKind) => {
      runRef.current?.run.stop();
      const run = engine === 'threads' ? threads().run(spec) : new SimulationRun(spec);
      runRef.current = { run, spec };
      setView(idle(spec, run.workers));
    },
    [threads],
  );

  return {
    view,
    start,
    threads,
    pause: () => runRef.current?.run.pause(),
    resume: () => runRef.current?.run.resume(),
    stop: () => runRef.current?.run.stop(),
  };
}
