// The live run as a plan step: the lesson's animated Run (and a recording's source run) is a plan
// of one live step, and "run both layouts" a plan of two. The step starts the run on its engine and
// hands it to the page's live host — the view that reads its telemetry once per frame and draws it
// (app/lesson/useLessonRun.ts) — and the step is over when the host has seen the run end, so the
// next run never starts before the views have drawn the last one's final frame.
import type { ExperimentSpec } from '../../spec/experimentSpec';
import type { StageCounters, TapFrame } from '../../telemetry';
import type { EngineKind, PipelineRun, RunSummary } from '../pipeline/pipelineRun';

/** Sees each frame of a run as the page reads it, then the run's end (or its replacement). */
export interface RunObserver {
  frame(frame: TapFrame, nowUs: number): void;
  end(run: PipelineRun): void;
}

/** How a live run ended, as the host saw it. */
export interface LiveEnd {
  state: 'done' | 'stopped' | 'error';
  summary: RunSummary;
  /** The stage counters of the last frame read. */
  counters: StageCounters[];
  error: string | null;
}

/** The view that draws live runs: shows `run` until it ends or another takes its place (then it
 * ends 'stopped'). One run at a time. */
export interface LiveHost {
  show(run: PipelineRun, spec: ExperimentSpec, observer?: RunObserver): Promise<LiveEnd>;
}

/** A live run that completed: what ran, on which engine, its numbers and final stage counters. */
export interface LiveRun {
  spec: ExperimentSpec;
  engine: EngineKind;
  summary: RunSummary;
  counters: StageCounters[];
}

/** Runs `run` (just started on its engine) on the host; null when stopped, throws on an error. */
export async function runLive(
  host: LiveHost,
  run: PipelineRun,
  spec: ExperimentSpec,
  signal: AbortSignal,
  observer?: RunObserver,
): Promise<LiveRun | null> {
  const stop = () => run.stop();
  signal.addEventListener('abort', stop);
  try {
    const end = await host.show(run, spec, observer);
    if (end.state === 'error') throw new Error(end.error ?? 'the run failed');
    if (end.state !== 'done') return null;
    return { spec, engine: run.engine, summary: end.summary, counters: end.counters };
  } finally {
    signal.removeEventListener('abort', stop);
  }
}
