// The paper's static thread-per-stage models: Case 1 closed (Eq. 1–3) and Case 2 open (Eq. 4).
import type { ExperimentSpec } from '../spec/experimentSpec';
import { MAX_POPULATION, ModelArgumentError, checkInteger, checkNonNegative } from './args';
import { finiteSource } from './finiteSource';
import { mmc } from './mmc';
import { stageInputs, type MeasuredServiceUs } from './serviceTime';

/** Case 1's T_arr: the paper's text says max(T_ser_i) ('max-service', the default, to be labelled
 * "paper" on screen); max(T_ser_i / c_i) ('max-service-per-server') is also arguable. */
export type ArrivalReading = 'max-service' | 'max-service-per-server';

export interface Case1Result {
  throughputPerUs: number;
  arrivalTimeUs: number;
  /** Per station: a stage, or a collapsed spec's fused group (see stageInputs). */
  stageThroughputPerUs: number[];
  /** Station index of the minimum. */
  bottleneckStage: number;
}

/**
 * Case 1: each stage i is an M/M/c_i/N/N finite source with N = Queue_size tokens and per-token
 * think time T_arr (Eq. 3: λ_i = Σ(N−n)P_n(i)/T_arr = (N − L_i)/T_arr); λe = min_i λ_i.
 * Stages are independent (no blocking between them), as in the paper. Stages with zero service
 * time never limit throughput and are skipped. `queueSize` defaults to spec.queue.capacity.
 */
export function closedStaticModel(
  spec: ExperimentSpec,
  options: {
    reading?: ArrivalReading;
    queueSize?: number;
    measuredServiceUs?: MeasuredServiceUs;
  } = {},
): Case1Result {
  const reading = options.reading ?? 'max-service';
  const queueSize = options.queueSize ?? spec.queue.capacity;
  if (queueSize === null) {
    throw new ModelArgumentError('queue.capacity', null, 'a bounded queue for Case 1; use Case 2');
  }
  checkInteger('queueSize', queueSize, 1, MAX_POPULATION);
  const stages = stageInputs(spec, options.measuredServiceUs);
  const arrivalTimeUs = Math.max(
    ...stages.map((s) =>
      reading === 'max-service' ? s.serviceTimeUs : s.serviceTimeUs / s.servers,
    ),
  );
  const stageThroughputPerUs = stages.map((s) =>
    s.serviceTimeUs === 0
      ? Infinity
      : finiteSource({
          servers: s.servers,
          population: queueSize,
          thinkTime: arrivalTimeUs,
          serviceTime: s.serviceTimeUs,
        }).throughput,
  );
  const throughputPerUs = Math.min(...stageThroughputPerUs);
  return {
    throughputPerUs,
    arrivalTimeUs,
    stageThroughputPerUs,
    bottleneckStage: stageThroughputPerUs.indexOf(throughputPerUs),
  };
}

export interface Case2Result {
  stable: boolean;
  /** λ when every stage is stable; otherwise the bottleneck's c_i/T_ser_i while queues grow. */
  throughputPerUs: number;
  /** Σ W_i over the queueing stages (Infinity when unstable). */
  latencyUs: number;
  stageUtilization: number[];
}

/**
 * Case 2 (open, unbounded queues, Eq. 4): each stage an M/M/c_i fed at λ. By default the input
 * stage is the source and λ = c_0/T_ser_0 (saturated input), so stages 1.. are the queues and the
 * latency adds T_ser_0; with an explicit arrival rate every stage is a queue.
 */
export function openStaticModel(
  spec: ExperimentSpec,
  options: { arrivalRatePerUs?: number; measuredServiceUs?: MeasuredServiceUs } = {},
): Case2Result {
  const stages = stageInputs(spec, options.measuredServiceUs);
  const given = options.arrivalRatePerUs;
  if (given !== undefined) checkNonNegative('arrivalRatePerUs', given);
  const lambda = given ?? stages[0].servers / stages[0].serviceTimeUs;
  const queues = given === undefined ? stages.slice(1) : stages;
  const stageUtilization = stages.map((s) => (lambda * s.serviceTimeUs) / s.servers);
  const capacity = Math.min(...queues.map((s) => s.servers / s.serviceTimeUs));
  if (!(lambda < capacity)) {
    return { stable: false, throughputPerUs: capacity, latencyUs: Infinity, stageUtilization };
  }
  let latencyUs = given === undefined ? stages[0].serviceTimeUs : 0;
  for (const s of queues) {
    if (s.serviceTimeUs === 0) continue;
    latencyUs += mmc({
      arrivalRate: lambda,
      serviceTime: s.serviceTimeUs,
      servers: s.servers,
    }).meanResponse;
  }
  return { stable: true, throughputPerUs: lambda, latencyUs, stageUtilization };
}
