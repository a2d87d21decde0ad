// The lesson's live view of runs: the page's live host (engine/planner/live.ts). Run submits a
// plan of one live run to the page's planner (which stops any plan in flight first); the planner's
// live steps hand their runs here, read once per animation frame through the telemetry tap and
// folded into the views' live state, and a step ends when this view has drawn its run's end.
// Finished runs become points for the model chart. A run may have an observer (a recorder) that
// sees each frame as read; a replay is a run too (not planned: it runs no engine), whose moves back
// hand over a rebuilt live state.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { BarrierSnapshot, BarrierTracker } from '../../live/barrierState';
import type { LiveState, LiveStateTracker } from '../../live/liveState';
import { taskEvents } from '../../live/taskLanes';
import { newIntervalTracker, newLiveTracker, newTaskLanes } from '../../runtimes';
import {
  inFlight,
  type EngineKind,
  type PipelineRun,
  type RunState,
  type RunSummary,
} from '../../engine/pipeline/pipelineRun';
import type { LiveEnd, LiveRun, RunObserver } from '../../engine/planner/live';
import type { PageEngines } from '../../engine/planner/pageEngines';
import type { RunPlanner } from '../../engine/planner/steps';
import { ReplayRun } from '../../replay/replayRun';
import { readTap } from '../../telemetry';
import { REDUCED_MOTION_REFRESH_MS, useReducedMotion } from '../useReducedMotion';
import type { ExperimentSpec } from '../../spec/experimentSpec';
import type { BoardFrame, StageCounters } from '../../telemetry';

/** The timeline shows this much run time. */
export const WINDOW_US = 2_000_000;
/** A run shorter than WINDOW_US fills the timeline's width (down to this much), rather than its
 * first few percent: a 150 ms run drawn on a 2 s axis is a sliver. */
const MIN_WINDOW_US = 50_000;
/** The span a timeline shows at run time `nowUs`: the run so far, until it fills WINDOW_US. */
export const shownWindowUs = (nowUs: number): number =>
  Math.min(WINDOW_US, Math.max(MIN_WINDOW_US, nowUs));
/**
 * The views are redrawn at most this often (real time), about 30 times a second, not at every
 * animation frame: drawing competes for the visitor's cores with the run it draws. Measured on 2
 * cores (lesson 2, one real thread, 2026-11-29): at 60 Hz the page's main thread was busy 45-51%
 * of the time and the run made 28.2-29.9 items/s; at 30 Hz 30-31% and 31.7-32.0 items/s, against
 * the twin's 35.2. The run's clock is read at each redraw, so nothing is lost between them.
 */
const MIN_FRAME_MS = 30;
/** Lanes are rebuilt this often (real time); everything else updates every redraw. */
const LANES_REFRESH_MS = 100;

export interface LessonRunView {
  engine: EngineKind | null;
  /** The replay in flight (its views' numbers are a recorded run's), or null for a live run. */
  replay: ReplayRun | null;
  state: RunState | 'idle';
  /** What this run runs (a replay: the recorded run's): the views' numbers are for it, which the
   * controls may have left since. */
  spec: ExperimentSpec;
  /** A live run still waiting for its engine's threads (PipelineRun.starting). */
  starting: boolean;
  live: LiveState;
  /** Barrier runtime: the last completed interval and per-thread totals (null otherwise). */
  barrier: BarrierSnapshot | null;
  counters: StageCounters[];
  summary: RunSummary | null;
  dropped: number;
  /** Telemetry events read from the rings during this run (the UI benchmark's stream rate). */
  eventsRead: number;
  /** Bytes of the memory the run's telemetry lives in (threads: the wasm module's memory, which
   * never grows; the endurance test reads it). */
  memoryBytes: number;
  error: string | null;
  /** Phaser runs: every task and stream now, and one lane per task (coloured by thread). */
  board: BoardFrame | null;
  taskLive: LiveState | null;
}

const idle = (
  tracker: LiveStateTracker,
  barrier: BarrierTracker | null,
  run: PipelineRun,
  spec: ExperimentSpec,
): LessonRunView => ({
  engine: null,
  replay: run instanceof ReplayRun ? run : null,
  state: 'idle',
  spec,
  starting: run.starting?.() ?? false,
  live: tracker.snapshot(),
  barrier: barrier?.snapshot() ?? null,
  counters: [],
  summary: null,
  dropped: 0,
  eventsRead: 0,
  memoryBytes: 0,
  error: null,
  board: null,
  taskLive: null,
});

export type LessonRun = ReturnType<typeof useLessonRun>;

/** A run that completed: what ran, on which engine, its numbers and its final stage counters. */
export interface FinishedRun extends LiveRun {
  /** Increasing through the session. */
  id: number;
}

/** What happens to runs: one started, or one ended (done, stopped or failed) with its numbers. */
export type RunEvent =
  | { type: 'started'; spec: ExperimentSpec }
  | { type: 'ended'; state: 'done' | 'stopped' | 'error'; run: LiveRun };

/** How a run the view stopped drawing (replaced, cleared) ended, for the step waiting on it. */
const stoppedEnd = (run: PipelineRun): LiveEnd => ({
  state: 'stopped',
  summary: run.summary(),
  counters: [],
  error: null,
});

export function useLessonRun(
  { planner, engines }: { planner: RunPlanner; engines: PageEngines },
  onEvent: (event: RunEvent) => void,
) {
  const runRef = useRef<{
    run: PipelineRun;
    spec: ExperimentSpec;
    tracker: LiveStateTracker;
    observer?: RunObserver;
    barrier: BarrierTracker | null;
    /** Phaser runs: lanes per task. */
    tasks: LiveStateTracker | null;
    /** Tells the plan step that handed the run over how it ended (a replay has none). */
    settle?: (end: LiveEnd) => void;
  } | null>(null);
  /** The lanes last built, reused between refreshes (cleared when a run starts). */
  const lanesRef = useRef<
    (Pick<LiveState, 'lanes' | 'lanesNowUs'> & { atMs: number; withTap: boolean }) | undefined
  >(undefined);
  const [view, setView] = useState<LessonRunView | null>(null);
  /** The last live run's final view while no live run has started since: a replay's exit puts
   * it back, so leaving a replay shows the page as it was before the replay began. */
  const lastLive = useRef<LessonRunView | null>(null);
  const reduced = useReducedMotion();
  const reducedMotion = useRef(reduced);
  useEffect(() => {
    reducedMotion.current = reduced;
  }, [reduced]);
  const notify = useRef(onEvent);
  useEffect(() => {
    notify.current = onEvent;
  });

  useEffect(() => {
    let frame = 0;
    let lastMs = -Infinity;
    const tick = () => {
      const current = runRef.current;
      const frameMs = performance.now();
      if (current && frameMs - lastMs >= MIN_FRAME_MS) {
        lastMs = frameMs;
        const { run, spec, observer, tasks } = current;
        try {
          run.tick(performance.now());
          const rebuilt = run instanceof ReplayRun ? run.takeRebuilt() : null;
          if (rebuilt) {
            current.tracker = rebuilt;
            // A replay moved back: the barrier view starts over from the next interval it sees.
            current.barrier = newIntervalTracker(spec);
          }
          const tap = run.tap();
          const tapFrame = tap ? readTap(tap) : null;
          const state = run.state();
          const newest = tapFrame?.events.at(-1);
          if (newest) run.seen?.(newest.timeUs);
          if (tapFrame) observer?.frame(tapFrame, run.nowUs());
          const { tracker, barrier } = current;
          tracker.advance(tapFrame?.events ?? [], run.nowUs(), tapFrame?.dropped ?? 0);
          barrier?.advance(tapFrame?.events ?? []);
          tasks?.advance(taskEvents(tapFrame?.events ?? []), run.nowUs());
          const nowMs = performance.now();
          const kept = lanesRef.current;
          const lanesMs = reducedMotion.current ? REDUCED_MOTION_REFRESH_MS : LANES_REFRESH_MS;
          // A replay's move back rebuilds the live state: redraw the lanes at once; so does the
          // first frame with telemetry (the threads exist), not a refresh period later.
          const refresh =
            !kept ||
            nowMs - kept.atMs >= lanesMs ||
            state !== 'running' ||
            !!rebuilt ||
            (!!tap && !kept.withTap);
          // A run that stopped or paused also offers its whole history to the timeline.
          const fresh = tracker.snapshot(refresh ? undefined : kept, state !== 'running');
          if (refresh)
            lanesRef.current = {
              lanes: fresh.lanes,
              lanesNowUs: fresh.lanesNowUs,
              atMs: nowMs,
              withTap: !!tap,
            };
          // A stopping run is read on, frame after frame, until its threads are joined: its last
          // frame, read after that, holds its final numbers.
          const ended = !inFlight(state);
          setView((prev) => {
            const next: LessonRunView = {
              engine: run.engine,
              replay: run instanceof ReplayRun ? run : null,
              state,
              spec,
              starting: run.starting?.() ?? false,
              // Less motion: the views keep their picture between refreshes; the numbers go on.
              live: reducedMotion.current && !refresh && prev?.live ? prev.live : fresh,
              barrier:
                reducedMotion.current && !refresh && prev
                  ? prev.barrier
                  : (barrier?.snapshot() ?? null),
              counters: tapFrame?.counters ?? [],
              summary: run.summary(),
              dropped: tapFrame?.dropped ?? 0,
              eventsRead: (prev?.eventsRead ?? 0) + (tapFrame?.events.length ?? 0),
              memoryBytes: tap?.buffer.byteLength ?? 0,
              error: run.error(),
              board: tapFrame?.board ?? prev?.board ?? null,
              taskLive: tasks
                ? refresh || !prev?.taskLive
                  ? tasks.snapshot()
                  : tasks.snapshot(prev.taskLive)
                : null,
            };
            if (ended && !(run instanceof ReplayRun)) lastLive.current = next;
            return next;
          });
          if (ended) {
            runRef.current = null;
            observer?.end(run);
            const summary = run.summary();
            const counters = tapFrame?.counters ?? [];
            notify.current({
              type: 'ended',
              state,
              run: { spec, engine: run.engine, summary, counters },
            });
            current.settle?.({ state, summary, counters, error: run.error() });
          }
        } catch (e) {
          runRef.current = null;
          observer?.end(run);
          const message = (e as Error).message;
          setView((prev) => (prev ? { ...prev, state: 'error', error: message } : prev));
          current.settle?.({ ...stoppedEnd(run), state: 'error', error: message });
        }
      }
      frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => {
      cancelAnimationFrame(frame);
      const current = runRef.current;
      current?.run.stop();
      runRef.current = null;
      if (current) current.settle?.(stoppedEnd(current.run));
    };
  }, []);

  /** Stops the run in flight, if any, and tells its observer and its step; the caller says what
   * comes next. */
  const endCurrent = useCallback(() => {
    const old = runRef.current;
    if (!old) return;
    old.run.stop();
    old.observer?.end(old.run);
    runRef.current = null;
    old.settle?.(stoppedEnd(old.run));
  }, []);

  /** Makes `run` the one in flight: the run before it is stopped first (and its observer told). */
  const begin = useCallback(
    (
      run: PipelineRun,
      spec: ExperimentSpec,
      observer?: RunObserver,
      settle?: (end: LiveEnd) => void,
    ) => {
      endCurrent();
      const tracker = newLiveTracker(spec, run.workers, WINDOW_US);
      const barrier = newIntervalTracker(spec);
      const tasks = newTaskLanes(spec, WINDOW_US);
      lanesRef.current = undefined;
      if (!(run instanceof ReplayRun)) lastLive.current = null;
      runRef.current = { run, spec, tracker, observer, barrier, tasks, settle };
      setView(idle(tracker, barrier, run, spec));
      notify.current({ type: 'started', spec });
    },
    [endCurrent],
  );

  // This view draws the page's live steps.
  useEffect(
    () =>
      engines.setLiveHost({
        show: (run, spec, observer) =>
          new Promise<LiveEnd>((settle) => begin(run, spec, observer, settle)),
      }),
    [engines, begin],
  );

  /** Runs `spec` live on `engine`: a plan of one live run, which stops any plan in flight. */
  const start = useCallback(
    (spec: ExperimentSpec, engine: EngineKind, observer?: RunObserver) => {
      const label = observer ? 'Record' : 'Run';
      planner.submit({
        label,
        owner: 'experiment',
        steps: [{ kind: 'live', label, spec, engine, observer }],
      });
    },
    [planner],
  );

  return {
    view,
    /** The spec of the run in flight (or last started), to tell which run the view shows. */
    spec: () => runRef.current?.spec ?? null,
    start,
    /** Replays a recording in place of any run or plan in flight. */
    replay: (run: ReplayRun) => {
      planner.stop('a replay took the views');
      begin(run, run.recording.spec);
    },
    pause: () => runRef.current?.run.pause(),
    resume: () => runRef.current?.run.resume(),
    /** Stops any run (its observer told, as when a new run replaces it) and clears its numbers
     * from the views, as before the first run: a reset. */
    clear: () => {
      endCurrent();
      lastLive.current = null;
      setView(null);
    },
    /** Stops a live run where it is, and the plan it belongs to; ends a replay and puts back what
     * the views showed before it (the last live run's numbers if it had finished, else nothing, as
     * before the first run). */
    stop: () => {
      const current = runRef.current;
      if (current?.run instanceof ReplayRun) {
        current.run.stop();
        runRef.current = null;
        setView(lastLive.current);
        return;
      }
      planner.stop();
      current?.run.stop();
    },
  };
}
