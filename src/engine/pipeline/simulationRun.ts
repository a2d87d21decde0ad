// The simulation engine: the discrete-event twin paced against the wall clock (one simulated µs
// per real µs, times `speed`), writing its telemetry into rings and counter lines laid out as in
// contracts/telemetry.md, exactly where a threads run's page would read them.
//
// Nothing is dropped: the twin can wait, real threads cannot. One frame moves it by at most
// MAX_FRAME_MS of wall clock, and the events a ring has no room for wait in a backlog, handed over
// as the page reads the rings; while a backlog waits the clock holds. On a loaded machine a frame
// came 0.3 s or more after the last, and lesson 4's run (about 8,000 writer events a simulated
// second) overfilled the 4,096-record rings: its reorder view ended at 1,501 of 1,563 batches
// written. The run is done only once its last event is in the rings.
import { createSimulation, runtimeOf } from '../../runtimes';
import type { Simulation } from '../../sim';
import { itemsOut, type ExperimentSpec } from '../../spec/experimentSpec';
import { createTapWriter, type TapWriter } from '../../telemetry';
import { type PipelineRun, type RunState, type RunSummary } from './pipelineRun';
import type { EventInput, TelemetryTap } from '../../telemetry';

/** Per-worker ring records: several frames of events even at 64 workers. */
const RING_CAPACITY = 4096;
/** The most wall-clock time one frame moves a paced run (the twin, a replay) by. Frames stop
 * while the tab is hidden and stall behind a long task; without a cap the first frame after that
 * carries the whole gap: a replay leapt ahead (0.06 s to 1.65 s of run time within 250 ms), the
 * twin wrote more events at once than its rings hold. */
export const MAX_FRAME_MS = 100;

export class SimulationRun implements PipelineRun {
  readonly engine = 'simulation' as const;
  readonly workers: number;
  private readonly telemetry: TapWriter;
  private readonly sim: Simulation;
  private readonly items: number;
  private runState: RunState = 'running';
  /** The wall clock at the last tick that moved the run (null: none yet, or paused since). */
  private lastTickMs: number | null = null;
  private simNowUs = 0;
  /** Per worker: events its ring had no room for, oldest first. */
  private readonly backlog: EventInput[][];

  constructor(
    spec: ExperimentSpec,
    private readonly speed = 1,
  ) {
    this.workers = spec.threads;
    this.items = itemsOut(spec);
    this.telemetry = createTapWriter(
      this.workers,
      spec.stages.length,
      RING_CAPACITY,
      runtimeOf(spec).engine.board ?? undefined,
    );
    const rings = this.telemetry.rings;
    this.backlog = rings.map(() => []);
    this.sim = createSimulation(spec, {
      sink: (e) => {
        const waiting = this.backlog[e.worker];
        // (A push into a full ring would count a drop.)
        if (waiting.length > 0 || rings[e.worker].free() === 0) waiting.push(e);
        else rings[e.worker].push(e);
      },
      board: this.telemetry.board,
    });
  }

  tap(): TelemetryTap {
    return this.telemetry.tap;
  }

  state(): RunState {
    return this.runState;
  }

  nowUs(): number {
    return this.simNowUs;
  }

  tick(realNowMs: number): void {
    if (this.runState !== 'running') return;
    const frameMs = Math.min(realNowMs - (this.lastTickMs ?? realNowMs), MAX_FRAME_MS);
    this.lastTickMs = realNowMs;
    // Events still waiting for room: the clock holds until the page has read enough of them.
    if (!this.handOverBacklog()) return;
    if (!this.sim.done && this.sim.failure() === null) {
      const target = this.simNowUs + frameMs * 1000 * this.speed;
      this.sim.advanceTo(target);
      this.simNowUs = this.sim.done ? this.sim.result().makespanUs : target;
      this.telemetry.writeCounters(this.sim.result().stages);
    }
    // Ended (done or stalled) only once its last event is in the rings.
    if (this.backlog.some((b) => b.length > 0)) return;
    if (this.sim.done) this.runState = 'done';
    else if (this.sim.failure() !== null) this.runState = 'error';
  }

  pause(): void {
    if (this.runState !== 'running') return;
    this.runState = 'paused';
    this.lastTickMs = null;
  }

  resume(): void {
    if (this.runState !== 'paused') return;
    this.runState = 'running';
  }

  stop(): void {
    if (this.runState === 'running' || this.runState === 'paused') this.runState = 'stopped';
  }

  summary(): RunSummary {
    const r = this.sim.result();
    const elapsedUs = this.sim.done ? r.makespanUs : this.simNowUs;
    return {
      items: this.items,
      completed: r.completed,
      elapsedUs,
      itemsPerSec: elapsedUs > 0 ? (r.completed / elapsedUs) * 1e6 : 0,
    };
  }

  error(): string | null {
    return this.sim.failure();
  }

  /** Moves waiting events into the rings the page has read; true when none waits any more. */
  private handOverBacklog(): boolean {
    let empty = true;
    this.backlog.forEach((waiting, w) => {
      const ring = this.telemetry.rings[w];
      const n = Math.min(waiting.length, ring.free());
      for (let i = 0; i < n; i++) ring.push(waiting[i]);
      waiting.splice(0, n);
      empty &&= waiting.length === 0;
    });
    return empty;
  }

  /** The twin formats and writes no text: only real threads produce an output to check. */
  output(): null {
    return null;
  }
}
