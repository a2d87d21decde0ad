// The paper's static thread-per-stage models: Case 1 closed (Eq. 1–3) and Case 2 open (Eq. 4).
import type { ExperimentSpec } from '../spec/experimentSpec';
import { MAX_POPULATION, ModelArgumentError, checkInteger, checkNonNegative } from './args';
import { finiteSource } from './finiteSource';
import { mmc } from './mmc';
import { stageInputs, type MeasuredServiceUs } from './serviceTime';

/**
 * Case 1's T_arr. The paper's text says max(T_ser_i) ('max-service'); we default to
 * max(T_ser_i / c_i) ('max-service-per-server'), the inter-arrival time the slowest stage allows,
 * because it keeps the order the paper measured: on the ferret profile fitted to Table 1 (lessons/03,
 * 7.32 ms per image) it has the 3-stage layout faster than the 6-stage one at every npTh until the
 * input stage's bound (Fig. 6a, §3.1). It does not reproduce the paper's sizing numbers: there its
 * c_opt is 12 collapsed and 11 per stage (the paper: 15 and 12); a profile fitted to give 15 and 12
 * still gives N_opt 13 and 16 against 21 and 24. The literal reading gives a token a whole T_max of
 * think time at the slowest stage itself, capping λ at N/(2·T_max): the collapsed stage never
 * reaches λ_max there (c_opt does not exist) and 6 stages overtake 3 at high npTh — the opposite of
 * Fig. 6a. Lessons draw both, the literal one dashed and captioned as such
 * (tests/unit/model/readings.test.ts holds these numbers).
 */
export type ArrivalReading = 'max-service' | 'max-service-per-server';
export const DEFAULT_READING: ArrivalReading = 'max-service-per-server';

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
 * think time T_arr (Eq. 3: λ_i = Σ(N−n)P_n(i)/T_arr = (N − L_i)/T_arr); λe = min_i λ_i (Eq. 1).
 * Rates are in items into the pipeline per µs (see stageInputs for emitting/bypassed stages).
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
  const reading = options.reading ?? DEFAULT_READING;
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
 * latency adds T_ser_0; with an explicit arrival rate every stage is a queue. With emitting or
 * bypassed stages (dedup) a stage's arrival rate is λ times its visit ratio (Eq. 4's T_arr_i,
 * "composing the throughput from the stages that reach S_i"), which stageInputs folds into its
 * demand; the latency then treats a stage's visits per input item as one service of that demand
 * (an approximation; the throughput and stability are exact under the model's assumptions).
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
