// Maps an ExperimentSpec stage's service distribution to the mean service time the models need.
import type { ExperimentSpec, ServiceSpec } from '../spec/experimentSpec';
import { stageGroups } from '../spec/stageGroups';
import { ModelArgumentError } from './args';

/** Mean of each distribution; kernels have no a-priori time, so a measured mean is required. */
export function meanServiceUs(service: ServiceSpec, measuredMeanUs?: number): number {
  switch (service.kind) {
    case 'fixed':
      return service.us;
    case 'exponential':
      return service.meanUs;
    case 'uniform':
      return (service.minUs + service.maxUs) / 2;
    case 'bimodal':
      return (1 - service.slowFraction) * service.fastUs + service.slowFraction * service.slowUs;
    case 'kernel':
      if (measuredMeanUs === undefined || !(measuredMeanUs >= 0)) {
        throw new ModelArgumentError(
          `measuredServiceUs (kernel ${service.name})`,
          measuredMeanUs,
          'a measured mean service time >= 0 µs for kernel stages',
        );
      }
      return measuredMeanUs;
  }
}

/** Optional measured means, one per stage (undefined where the distribution's mean is used). */
export type MeasuredServiceUs = readonly (number | undefined)[];

export interface StageInput {
  /** Service demand per item INTO THE PIPELINE (µs): the stage's mean service time times how
   * many times an input item's descendants are served there (see stageInputs). */
  serviceTimeUs: number;
  servers: number;
  serial: boolean;
}

/** Per stage: how many items reach it per item into the pipeline (the emits of the stages before
 * it, bypassing items included), and how many of those it serves (all but the bypassing ones). */
export function visitRatios(spec: ExperimentSpec): { arriving: number; served: number }[] {
  let arriving = 1;
  return spec.stages.map((stage) => {
    const served = arriving * (1 - (stage.bypass ?? 0));
    const visit = { arriving, served };
    // Served items leave as `emits` items each; bypassing ones pass as they are.
    arriving = served * (stage.emits ?? 1) + (arriving - served);
    return visit;
  });
}

/**
 * Model stations: mean service (a measured mean overrides the distribution) and servers per stage.
 * A collapsed spec's fused group is one station: service Σ T_ser_i over the group, servers Σ c_i
 * (each worker takes an item through the whole group), exactly as the runtime runs it.
 * Dedup's shapes (emits, bypass) enter as visit ratios, the standard reduction of a queueing
 * network: a station's demand is its service time times the items it serves per item into the
 * pipeline, so every throughput the models compute from these stations is in items INTO the
 * pipeline per µs (times outputsPerItem(spec) for items out). Without emits or bypass the
 * demand is the service time.
 */
export function stageInputs(spec: ExperimentSpec, measured: MeasuredServiceUs = []): StageInput[] {
  const meanUs = (i: number) => measured[i] ?? meanServiceUs(spec.stages[i].service, measured[i]);
  const visits = visitRatios(spec);
  return stageGroups(spec).map((group) => ({
    serviceTimeUs: group.reduce((sum, i) => sum + visits[i].served * meanUs(i), 0),
    servers: group.reduce((sum, i) => sum + spec.stages[i].threads, 0),
    serial: spec.stages[group[0]].mode !== 'parallel',
  }));
}

/** ΣT_ser_i: the work one item brings (Case 3's T_arr = T_ser); rejects a pipeline with none. */
export function totalServiceUs(stages: StageInput[]): number {
  const total = stages.reduce((sum, s) => sum + s.serviceTimeUs, 0);
  if (!(total > 0)) throw new ModelArgumentError('stages', total, 'a total service time > 0 µs');
  return total;
}

/** Eq. 7's I/O cap generalised: every serial stage passes at most one item per T_ser. */
export function serialCapPerUs(stages: StageInput[]): number {
  let cap = Infinity;
  for (const s of stages)
    if (s.serial && s.serviceTimeUs > 0) cap = Math.min(cap, 1 / s.serviceTimeUs);
  return cap;
}
