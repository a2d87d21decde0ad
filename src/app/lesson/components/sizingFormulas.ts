// "Size it for me" in numbers: the sizing equations (seed 000 §3.4, Eq. 8–10, and Eq. 3 solved for
// N and c) as TeX with the visitor's measured service times substituted, and the configuration to
// run. Pure, so the page and its tests compute the same thing.
import {
  leastNpTh,
  sizedRate,
  sizing,
  withParallelThreads,
  type SizingResult,
} from '../../../model/sizing';
import { meanServiceUs, type MeasuredServiceUs } from '../../../model/serviceTime';
import { sizingThreads } from '../../../runtimes';
import {
  outputsPerItem,
  type ExperimentSpec,
  type ServiceSpec,
} from '../../../spec/experimentSpec';
import { parallelThreadsOf } from '../../../spec/parallelThreads';
import { stageGroups } from '../../../spec/stageGroups';

export interface SizingPlan {
  result: SizingResult;
  /** npTh to run: c_optimal for the visitor's cores (the paper's when the cores suffice). */
  npTh: number | null;
  /** Queue size to run: N_optimal at that npTh (null: keep the current one, `notes` says why). */
  queue: number | null;
  /** The model's prediction for that configuration, items out per second (the cores' bound
   * applied: threads cannot do more work than the cores have). */
  predictedPerSec: number | null;
  /** Each equation with the numbers substituted. */
  formulas: Array<{ id: string; label: string; tex: string }>;
  /** Why a value is missing or differs from the paper's sizing, in words. */
  notes: string[];
}

const perSec = (perUs: number) => perUs * 1e6;
const num = (x: number) => (Number.isFinite(x) ? String(Number(x.toPrecision(4))) : '\\infty');
const rateTex = (perUs: number) => `${num(perSec(perUs))}\\ \\text{items/s}`;
// Whole µs from 100 up, as the page prints the measured times and their sum beside the formulas.
const usTex = (us: number) => `${us >= 100 ? Math.round(us) : num(us)}\\,\\mu s`;
const name = (text: string) => `\\text{${text.replace(/[^A-Za-z0-9 +-]/g, '')}}`;

/**
 * Sizes `spec` (the layout on screen) from measured per-stage service times for `cores` cores,
 * with at most `maxNpTh` parallel threads and queue sizes up to `maxQueue` (the lesson's controls).
 */
export function planSizing(
  spec: ExperimentSpec,
  measuredServiceUs: MeasuredServiceUs,
  cores: number,
  limits: { maxNpTh: number; maxQueue: number },
  /** The N c_optimal is solved at (the paper's N = 20; default the spec's queue). Solving it at
   * the queue the last sizing set would make a second press answer differently from the first. */
  copyAtN?: number,
): SizingPlan {
  const threads = sizingThreads(spec);
  const result = sizing(spec, threads, { measuredServiceUs, cores, size: copyAtN });
  const notes = [...result.why];
  const groups = stageGroups(spec);
  const station = (i: number) => groups[i].map((s) => spec.stages[s].name).join(' + ');
  const formulas: SizingPlan['formulas'] = [];
  // Eq. 8-10 describe the pipeline at the controls' npTh; N_optimal below is at the sized npTh.
  const npNow = parallelThreadsOf(spec.stages);
  const eps = result.tolerance;
  const upper = result.upperPerUs
    .map((u, i) => ({ u, i }))
    .filter(({ i }) => !result.stations[i].serial);
  const slowest = upper.reduce((a, b) => (b.u < a.u ? b : a), upper[0]);
  if (slowest) {
    const s = result.stations[slowest.i];
    formulas.push({
      id: 'eq8',
      label: `Eq. 8, the slowest parallel stage at npTh = ${npNow}`,
      tex: `\\lambda_{upper,${name(station(slowest.i))}} \\approx \\frac{c}{T_{ser}} = \\frac{${s.servers}}{${usTex(s.serviceTimeUs)}} = ${rateTex(slowest.u)}`,
    });
  }
  const serial = result.stations.map((s, i) => ({ s, i })).filter(({ s }) => s.serial);
  if (serial.length > 0)
    formulas.push({
      id: 'eq9',
      label: 'Eq. 9, the serial stages',
      tex: `\\lambda_{max} = \\min\\left(${serial.map(({ s }) => `\\frac{1}{${usTex(s.serviceTimeUs)}}`).join(', ')}\\right) = ${rateTex(result.lambdaMaxPerUs)}`,
    });
  formulas.push({
    id: 'eq10',
    label: `Eq. 10, the ceiling at npTh = ${npNow}`,
    tex: `\\lambda_{eu} = \\min\\left(\\min_i \\lambda_{upper,i},\\ \\lambda_{max}\\right) = ${rateTex(result.ceilingPerUs)}`,
  });
  const reading = { measuredServiceUs };
  const onCores = result.onCores!;
  const totalUs = result.stations.reduce((sum, s) => sum + s.serviceTimeUs, 0);
  formulas.push({
    id: 'cores',
    label: 'Your cores (not in the paper, which had a core for every thread)',
    tex: `\\lambda_{cores} = \\frac{C}{\\sum_i T_{ser,i}} = \\frac{${cores}}{${usTex(totalUs)}} = ${rateTex(onCores.capPerUs)}`,
  });
  if (result.cOptimal !== null && result.size !== null) {
    const c = result.cOptimal;
    // The npTh one step below c_optimal, when there is one: c_optimal may be the fewest threads
    // the layout runs (slow serial stages: one per parallel stage already reaches λ_max).
    const below = c - (result.cOptimalPerStage ? c / result.cOptimalPerStage : 1);
    formulas.push({
      id: 'copt',
      label: `c_optimal: Eq. 3 solved at N = ${result.size}`,
      tex:
        `\\lambda_e(npTh{=}${c}, N{=}${result.size}) = ${rateTex(sizedRate(spec, threads, c, result.size, reading))} \\ge (1-${eps})\\,\\lambda_{max}` +
        (below >= leastNpTh(spec, threads)
          ? ` > \\lambda_e(npTh{=}${below}) = ${rateTex(sizedRate(spec, threads, below, result.size, reading))}`
          : ''),
    });
  } else if (result.cOptimal !== null)
    formulas.push({
      id: 'copt',
      label: 'c_optimal: the open model (Eq. 4–5)',
      tex: `\\min_i \\lambda_{upper,i}(npTh{=}${result.cOptimal}) \\ge (1-${eps})\\,\\lambda_{max} = ${rateTex((1 - eps) * result.lambdaMaxPerUs)}`,
    });
  let npTh = onCores.cOptimal ?? result.cOptimal;
  if (npTh !== null && npTh > limits.maxNpTh) {
    notes.push(
      `c_optimal = ${npTh} is more than this lesson's npTh control allows (${limits.maxNpTh})`,
    );
    npTh = limits.maxNpTh;
  }
  if (onCores.cOptimal !== null && onCores.cOptimal !== result.cOptimal)
    notes.push(
      `your ${cores} cores cap λ at ${num(perSec(onCores.capPerUs))} items/s, below λ_max: npTh = ${onCores.cOptimal} already reaches that, where the paper's sizing (a core per thread) would ask for ${result.cOptimal ?? 'more than any npTh gives'}`,
    );
  let queue: number | null = null;
  if (npTh !== null && spec.queue.capacity !== null) {
    const at = sizing(withParallelThreads(spec, npTh), threads, { measuredServiceUs });
    queue = at.nOptimal;
    if (queue !== null) {
      formulas.push({
        id: 'nopt',
        label: `N_optimal at npTh = ${npTh}: Eq. 3 solved for N`,
        tex:
          `\\lambda_e(N{=}${queue}) = ${rateTex(sizedRate(spec, threads, npTh, queue, reading))} \\ge (1-${eps})\\,\\lambda_{eu}(npTh{=}${npTh}) = (1-${eps}) \\times ${rateTex(at.ceilingPerUs)} = ${rateTex((1 - eps) * at.ceilingPerUs)}` +
          (queue > 1
            ? ` > \\lambda_e(N{=}${queue - 1}) = ${rateTex(sizedRate(spec, threads, npTh, queue - 1, reading))}`
            : ''),
      });
      if (queue > limits.maxQueue) {
        notes.push(
          `N_optimal = ${queue} is more than this lesson's queue control allows (${limits.maxQueue})`,
        );
        queue = limits.maxQueue;
      }
    } else notes.push(...at.why);
  }
  const size = queue ?? spec.queue.capacity ?? 1;
  const predictedPerSec =
    npTh === null
      ? null
      : perSec(Math.min(sizedRate(spec, threads, npTh, size, reading), onCores.capPerUs)) *
        outputsPerItem(spec);
  return { result, npTh, queue, predictedPerSec, formulas, notes };
}

/** Mean service time per served item of each stage, from a finished run's stage counters (the
 * spec's mean where a stage served nothing). */
export function measuredTimes(
  counters: Array<{ itemsIn: number; busyUs: number }>,
): MeasuredServiceUs {
  return counters.map((c) => (c.itemsIn > 0 ? c.busyUs / c.itemsIn : undefined));
}

/** `service` with every time multiplied by `k` (a kernel is real work: it stays as it is). */
function scaled(service: ServiceSpec, k: number): ServiceSpec {
  switch (service.kind) {
    case 'fixed':
      return { ...service, us: service.us * k };
    case 'exponential':
      return { ...service, meanUs: service.meanUs * k };
    case 'uniform':
      return { ...service, minUs: service.minUs * k, maxUs: service.maxUs * k };
    case 'bimodal':
      return { ...service, fastUs: service.fastUs * k, slowUs: service.slowUs * k };
    case 'kernel':
      return service;
  }
}

/**
 * The sized configuration as the twin runs it when the visitor's threads cannot (more threads
 * than the page runs on these cores): each stage's distribution rescaled to the mean measured,
 * and the threads sharing the visitor's `cores`. Those are the prediction's own inputs (measured
 * times, the cores' cap), so the simulated row answers the question the predicted row does. A twin
 * of the spec as written would have a core per thread and the nominal times: on two cores it
 * reported 400 items/s beside a prediction of 161.
 */
export function twinOfSized(
  spec: ExperimentSpec,
  measuredServiceUs: MeasuredServiceUs,
  cores: number,
): ExperimentSpec {
  return {
    ...spec,
    cores,
    stages: spec.stages.map((stage, i) => {
      const measured = measuredServiceUs[i];
      if (measured === undefined || stage.service.kind === 'kernel') return stage;
      const mean = meanServiceUs(stage.service);
      return mean > 0 ? { ...stage, service: scaled(stage.service, measured / mean) } : stage;
    }),
  };
}
