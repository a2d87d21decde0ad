// Drives the C++ pipeline runtimes through the wasm exports: create + start without blocking, and
// where the run's telemetry lives in wasm memory. Used by the engine worker and the wasm tests.
import type { ExperimentSpec } from '../../spec/experimentSpec';
import { check, withCString, type PipelabModule } from '../wasmExports';
import type { TelemetryTap } from '../../telemetry';
import type { WasmTapLayout } from '../protocol';
import type { PipelineOutput } from './pipelineRun';

/** Parses the spec in C++ (errors name the field), builds the runtime and starts its threads. */
export function startWasmPipeline(mod: PipelabModule, spec: ExperimentSpec): WasmTapLayout {
  withCString(mod, JSON.stringify(spec), (ptr) => check(mod, mod._pl_pipeline_create(ptr)));
  check(mod, mod._pl_pipeline_start());
  const workers = mod._pl_pipeline_workers();
  return {
    workers,
    ringOffsets: Array.from({ length: workers }, (_, w) => mod._pl_pipeline_ring(w)),
    countersOffset: mod._pl_pipeline_counters(),
    stages: spec.stages.length,
    boardOffset: mod._pl_pipeline_board(),
  };
}

export function wasmTap(memory: ArrayBufferLike, layout: WasmTapLayout): TelemetryTap {
  return {
    buffer: memory,
    ringOffsets: layout.ringOffsets,
    countersOffset: layout.countersOffset,
    stages: layout.stages,
    ...(layout.boardOffset ? { boardOffset: layout.boardOffset } : {}),
  };
}

/** What the finished run produced (two-stage runtimes), or null. */
export function readPipelineOutput(mod: PipelabModule): PipelineOutput | null {
  return JSON.parse(mod.UTF8ToString(mod._pl_pipeline_output())) as PipelineOutput | null;
}

/** Why the finished run stopped early (a stalled phaser graph), or "". */
export function pipelineError(mod: PipelabModule): string {
  return mod.UTF8ToString(mod._pl_pipeline_error());
}

/** Polls (never blocks) until every thread of the run has exited, then reaps them. */
export function whenPipelineFinished(mod: PipelabModule, pollMs = 2): Promise<void> {
  return new Promise((resolve) => {
    const poll = () => {
      if (!mod._pl_pipeline_finished()) return void setTimeout(poll, pollMs);
      mod._pl_pipeline_join();
      resolve();
    };
    poll();
  });
}
