// Test support: a real recording of a seeded twin run, made as the lesson page makes one (each
// frame's readTap handed to a Recorder), and a page stand-in that drives a replay as
// useLessonRun does (tick, take a rebuilt tracker, read the tap, fold into the live state).
import { SimulationRun } from '../../../src/engine/pipeline/simulationRun';
import { LiveStateTracker, type LiveState } from '../../../src/live/liveState';
import { Recorder, type RecorderLimits } from '../../../src/replay/recorder';
import type { Recording, RunEnd } from '../../../src/replay/recording';
import { ReplayRun } from '../../../src/replay/replayRun';
import { parseExperimentSpec, type ExperimentSpec } from '../../../src/spec/experimentSpec';
import { readTap } from '../../../src/telemetry';

export const FRAME_MS = 16;
const WINDOW_US = 2_000_000;

export const twinSpec = (runtime: 'static' | 'work-stealing', items = 300): ExperimentSpec =>
  parseExperimentSpec({
    runtime,
    stages: [
      { name: 'input', mode: 'serial-in-order', service: { kind: 'fixed', us: 200 } },
      { name: 'work', mode: 'parallel', threads: 2, service: { kind: 'exponential', meanUs: 900 } },
      { name: 'output', mode: 'serial-in-order', service: { kind: 'fixed', us: 150 } },
    ],
    ...(runtime === 'work-stealing' ? { threads: 3, tokens: 4 } : {}),
    queue: { kind: 'cached-spsc', capacity: 2 },
    items,
    seed: 7,
  });

export function recordTwin(spec: ExperimentSpec, limits?: RecorderLimits): Recording {
  const run = new SimulationRun(spec);
  const recorder = new Recorder(
    {
      recordedAt: '2025-01-14T10:32:00.000Z',
      origin: {
        userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0.0.0 Safari/537.36',
        cores: 2,
      },
      engine: run.engine,
      lesson: { slug: 'test-lesson', values: { threads: 2 } },
      spec,
      workers: run.workers,
    },
    limits,
  );
  for (let ms = 0; run.state() === 'running'; ms += FRAME_MS) {
    run.tick(ms);
    recorder.frame(readTap(run.tap()), run.nowUs());
  }
  return recorder.finish(run.state() as RunEnd, run.summary(), run.nowUs());
}

export const trackerFor = (rec: Recording) => () =>
  new LiveStateTracker(rec.workers, rec.spec.stages.length, WINDOW_US);

/** The lesson page's frame loop around a replay, with a clock of its own. */
export class PageStandIn {
  private tracker: LiveStateTracker;
  nowMs = 0;
  constructor(readonly run: ReplayRun) {
    this.tracker = trackerFor(run.recording)();
  }
  /** One animation frame FRAME_MS after the last. */
  frame(): void {
    this.nowMs += FRAME_MS;
    this.run.tick(this.nowMs);
    this.tracker = this.run.takeRebuilt() ?? this.tracker;
    this.tracker.advance(readTap(this.run.tap()).events, this.run.nowUs());
  }
  snapshot(): LiveState {
    return this.tracker.snapshot();
  }
}

export const replayOf = (rec: Recording, playing = true) =>
  new PageStandIn(new ReplayRun(rec, trackerFor(rec), { playing }));
