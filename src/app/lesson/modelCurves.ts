// The model overlays a lesson asks for as curves over the swept control, for the model chart.
import { OVERLAY_LABELS, type ModelOverlay } from '../../model';
import { modelItemsPerSec } from '../../runtimes';
import { applyControls, type ControlValues, type LessonControl } from '../../lessons/controls';

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
