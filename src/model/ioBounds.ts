// The ends of the pipeline (seed 000 §3.4; seed 002): the critical serial stage's cap
// λ_max = 1/T_ser (Eq. 9), the parallel stages' λ_upper = c/T_ser (Eq. 8) and the effective
// bound λ_eu = min(λ_upper, λ_max) (Eq. 10), for thread-per-stage specs and the two-stage I/O
// runtimes (their variant and buffer pool included). Rates in items/µs; Infinity where nothing
// bounds (no serial stage, zero service).
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

/**
 * Two-stage runtimes: a formatting thread works only while it holds a buffer, so at most
 * `buffers` format at once (output; fewer while finished batches wait or one is written); the
 * serial variant does both stages on one thread, one after the other: 1/(T_par + T_ser).
 */
function twoStageBounds(spec: ExperimentSpec, stages: StageInput[]): IoBounds {
  const p = spec.runtime === 'two-stage-output' ? 0 : 1;
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
  const working =
    spec.runtime === 'two-stage-output'
      ? Math.min(parallel.servers, spec.buffers!)
      : parallel.servers;
  const lambdaUpperPerUs = perUs(working, parallel.serviceTimeUs);
  return {
    lambdaMaxPerUs,
    lambdaUpperPerUs,
    lambdaEuPerUs: Math.min(lambdaUpperPerUs, lambdaMaxPerUs),
  };
}

export function ioBounds(spec: ExperimentSpec): IoBounds {
  const stages = stageInputs(spec);
  if (spec.runtime === 'two-stage-output' || spec.runtime === 'two-stage-input')
    return twoStageBounds(spec, stages);
  const lambdaMaxPerUs = serialCapPerUs(stages);
  // Work stealing (Case 3): any thread serves any stage, so the threads share the whole work.
  const lambdaUpperPerUs =
    spec.runtime === 'work-stealing'
      ? perUs(spec.threads, totalServiceUs(stages))
      : Math.min(...stages.filter((s) => !s.serial).map((s) => perUs(s.servers, s.serviceTimeUs)));
  const every =
    spec.runtime === 'work-stealing'
      ? lambdaUpperPerUs
      : Math.min(...stages.map((s) => perUs(s.servers, s.serviceTimeUs)));
  return { lambdaMaxPerUs, lambdaUpperPerUs, lambdaEuPerUs: Math.min(every, lambdaMaxPerUs) };
}

/** The runtime kinds with a thread-per-stage layout (Case 1's models apply to these). */
export const isThreadPerStage = (spec: ExperimentSpec) =>
  spec.runtime === 'static' || spec.runtime === 'collapsed';
