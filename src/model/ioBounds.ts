// The ends of the pipeline (seed 000 §3.4; seed 002): the critical serial stage's cap
// λ_max = 1/T_ser (Eq. 9), the parallel stages' λ_upper = c/T_ser (Eq. 8) and the effective
// bound λ_eu = min(λ_upper, λ_max) (Eq. 10), for thread-per-stage specs and the two-stage I/O
// runtimes (their variant and buffer pool included), by the shape of threads the runtime's module
// names. Rates in items/µs; Infinity where nothing bounds (no serial stage, zero service).
import type { ExperimentSpec } from '../spec/experimentSpec';
import { serialCapPerUs, stageInputs, totalServiceUs, type StageInput } from './serviceTime';

export interface IoBounds {
  /** Eq. 9: one item per T_ser of the slowest serial stage. */
  lambdaMaxPerUs: number;
  /** Eq. 8: what the parallel stages pass with every thread busy (the slowest of them). */
  lambdaUpperPerUs: number;
  /** Eq. 10: the effective throughput's upper bound. */
  lambdaEuPerUs: number;
}

const perUs = (servers: number, serviceUs: number) =>
  serviceUs > 0 ? servers / serviceUs : Infinity;

/** How a runtime kind's threads meet its stages for these bounds (its module says which:
 * src/runtimes): each stage its own threads (thread per stage; a phaser graph's tasks); one pool
 * of `threads` serving any stage (work stealing, Case 3); or a two-stage runtime, whose parallel
 * stage is the first (output) or the second (input), and whose formatting threads each need a
 * buffer of the pool (output). */
export type IoShape =
  'per-stage' | 'pool' | { twoStage: { parallelStage: 0 | 1; bufferPool: boolean } };

/**
 * Two-stage runtimes: a formatting thread works only while it holds a buffer, so at most
 * `buffers` format at once (output; fewer while finished batches wait or one is written); the
 * serial variant does both stages on one thread, one after the other: 1/(T_par + T_ser).
 */
function twoStageBounds(
  spec: ExperimentSpec,
  stages: StageInput[],
  shape: { parallelStage: 0 | 1; bufferPool: boolean },
): IoBounds {
  const p = shape.parallelStage;
  const parallel = stages[p];
  const serial = stages[1 - p];
  const lambdaMaxPerUs = perUs(1, serial.serviceTimeUs);
  if (spec.variant === 'serial') {
    const both = perUs(1, parallel.serviceTimeUs + serial.serviceTimeUs);
    return {
      lambdaMaxPerUs,
      lambdaUpperPerUs: perUs(1, parallel.serviceTimeUs),
      lambdaEuPerUs: both,
    };
  }
  const working = shape.bufferPool ? Math.min(parallel.servers, spec.buffers!) : parallel.servers;
  const lambdaUpperPerUs = perUs(working, parallel.serviceTimeUs);
  return {
    lambdaMaxPerUs,
    lambdaUpperPerUs,
    lambdaEuPerUs: Math.min(lambdaUpperPerUs, lambdaMaxPerUs),
  };
}

export function ioBounds(spec: ExperimentSpec, shape: IoShape): IoBounds {
  const stages = stageInputs(spec);
  if (typeof shape === 'object') return twoStageBounds(spec, stages, shape.twoStage);
  const lambdaMaxPerUs = serialCapPerUs(stages);
  // Work stealing (Case 3): any thread serves any stage, so the threads share the whole work.
  const lambdaUpperPerUs =
    shape === 'pool'
      ? perUs(spec.threads, totalServiceUs(stages))
      : Math.min(...stages.filter((s) => !s.serial).map((s) => perUs(s.servers, s.serviceTimeUs)));
  const every =
    shape === 'pool'
      ? lambdaUpperPerUs
      : Math.min(...stages.map((s) => perUs(s.servers, s.serviceTimeUs)));
  return { lambdaMaxPerUs, lambdaUpperPerUs, lambdaEuPerUs: Math.min(every, lambdaMaxPerUs) };
}
