// The model overlays a lesson asks for, as throughput in items/s: one value for the current
// controls, and curves over the swept control for the model chart.
import { closedStaticModel, idealModel, openStaticModel, workStealingModel } from '../../model';
import {
  applyControls,
  type ControlValues,
  type LessonControl,
  type ModelOverlay,
} from '../../lessons/lessonFormat';
import type { ExperimentSpec } from '../../spec/experimentSpec';

export const OVERLAY_LABELS: Record<ModelOverlay, string> = {
  case1: 'Case 1 (closed, T_arr = max T_ser)',
  'case1-per-server': 'Case 1 (T_arr = max T_ser / c)',
  case2: 'Case 2 (open)',
  case3: 'Case 3 (work stealing)',
  ideal: 'Ideal (one central queue)',
};

/** Model throughput in items/s, or null when the overlay does not apply to this runtime. */
export function modelItemsPerSec(overlay: ModelOverlay, spec: ExperimentSpec): number | null {
  const staticRuntime = spec.runtime !== 'work-stealing';
  let perUs: number | null = null;
  if (overlay === 'case1' && staticRuntime)
    perUs = closedStaticModel(spec, { reading: 'max-service' }).throughputPerUs;
  if (overlay === 'case1-per-server' && staticRuntime)
    perUs = closedStaticModel(spec, { reading: 'max-service-per-server' }).throughputPerUs;
  if (overlay === 'case2' && staticRuntime) perUs = openStaticModel(spec).throughputPerUs;
  if (overlay === 'case3' && !staticRuntime) perUs = workStealingModel(spec).throughputPerUs;
  if (overlay === 'ideal' && !staticRuntime) perUs = idealModel(spec);
  return perUs === null || !Number.isFinite(perUs) ? null : perUs * 1e6;
}

/** At most this many x values per curve (a 64-point curve is the model benchmark's unit). */
const MAX_POINTS = 64;

export function sweepValues(control: LessonControl): number[] {
  if (control.kind !== 'range') return [];
  const span = control.max - control.min;
  const step = Math.max(control.step, Math.ceil(span / (MAX_POINTS - 1)));
  const xs: number[] = [];
  for (let x = control.min; x <= control.max; x += step) xs.push(x);
  if (xs[xs.length - 1] !== control.max) xs.push(control.max);
  return xs;
}

export function modelCurves(
  experimentSource: unknown,
  controls: LessonControl[],
  values: ControlValues,
  overlays: ModelOverlay[],
  sweep: LessonControl,
): Array<{ id: string; label: string; points: Array<[number, number]>; dashed: boolean }> {
  const xs = sweepValues(sweep);
  const specs = xs.map((x) =>
    applyControls(experimentSource, controls, { ...values, [sweep.id]: x }),
  );
  return overlays
    .map((overlay, i) => ({
      id: overlay,
      label: OVERLAY_LABELS[overlay],
      dashed: i > 0,
      points: xs.flatMap((x, k): Array<[number, number]> => {
        const y = modelItemsPerSec(overlay, specs[k]);
        return y === null ? [] : [[x, y]];
      }),
    }))
    .filter((c) => c.points.length > 0);
}
