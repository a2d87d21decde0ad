// The simulation engine: the discrete-event twin paced against the wall clock (one simulated µs
// per real µs, times `speed`), writing its telemetry into rings and counter lines laid out as in
// contracts/telemetry.md, exactly where a threads run's page would read them.
import { createSimulation, type Simulation } from '../../sim';
import { itemsOut, type ExperimentSpec } from '../../spec/experimentSpec';
import { createTapWriter, type TapWriter } from '../../telemetry';
import { MAX_STREAMS, MAX_TASKS } from '../../model/phaserCosts';
import { type PipelineRun, type RunState, type RunSummary } from './pipelineRun';
import type { TelemetryTap } from '../../telemetry';

/** Per-worker ring records: several frames of events even at 64 workers. */
const RING_CAPACITY = 4096;

export class SimulationRun implements PipelineRun {
  readonly engine = 'simulation' as const;
  readonly workers: number;
  private readonly telemetry: TapWriter;
  private readonly sim: Simulation;
  private readonly items: number;
  private runState: RunState = 'running';
  private startedMs: number | null = null;
  private pausedAtMs: number | null = null;
  private pausedTotalMs = 0;
  private simNowUs = 0;

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
      spec.runtime === 'phaser'
        ? { taskCapacity: MAX_TASKS, streamCapacity: MAX_STREAMS }
        : undefined,
    );
    const rings = this.telemetry.rings;
    this.sim = createSimulation(spec, {
      sink: (e) => rings[e.worker].push(e),
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
    this.startedMs ??= realNowMs;
    const target = (realNowMs - this.startedMs - this.pausedTotalMs) * 1000 * this.speed;
    this.sim.advanceTo(target);
    this.simNowUs = this.sim.done ? this.sim.result().makespanUs : target;
    this.telemetry.writeCounters(this.sim.result().stages);
    if (this.sim.done) this.runState = 'done';
    else if (this.sim.failure() !== null) this.runState = 'error';
  }

  pause(): void {
    if (this.runState !== 'running') return;
    this.runState = 'paused';
    this.pausedAtMs = performance.now();
  }

  resume(): void {
    if (this.runState !== 'paused') return;
    this.pausedTotalMs += performance.now() - (this.pausedAtMs ?? performance.now());
    this.pausedAtMs = null;
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

  /** The twin formats and writes no text: only real threads produce an output to check. */
  output(): null {
    return null;
  }
}
