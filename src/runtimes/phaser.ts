// The phaser runtime (seed 003): tasks on bounded phaser streams, multiplexed onto `threads` pool
// threads. The stream-graph bound models it; its runs write a board of tasks and streams and get
// one lane per task; what waits between its stages is a stream's phases, up to its bound.
import { MAX_STREAMS, MAX_TASKS } from '../model/phaserCosts';
import { phaserSimulation } from '../sim/simulation';
import { DEFAULTS } from '../spec/limits';
import { RUNTIME_KINDS } from '../spec/runtimeKinds';
import { END_BOUNDS, pipelineModule } from './pipelineKinds';

export const phaserRuntime = pipelineModule({
  spec: RUNTIME_KINDS.phaser,
  twin: phaserSimulation,
  model: {
    overlays: ['stream-bound', ...END_BOUNDS],
    io: 'per-stage',
    sizing: null,
    corePerThread: true,
  },
  engine: { rule: null, board: { taskCapacity: MAX_TASKS, streamCapacity: MAX_STREAMS } },
  live: { taskLanes: true },
  views: {
    more: ['stream-graph', 'task-timeline'],
    // Its queue is only carried at its default (spec/runtimeKinds.ts): the streams' bound is what
    // a stage's input holds.
    linkCapacity: (spec) => spec.bound ?? DEFAULTS.bound,
  },
});
