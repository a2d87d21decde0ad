// What the phaser lesson's charts share: the lesson's graph choice (a choice control `graph`
// whose values name the graphs a chart runs), specs at chosen control values, the model's rate,
// and the chart's points per series, measured by plans on the page's planner.
import { useMemo, useState } from 'react';
import type { PointStep } from '../../../engine/planner/steps';
import { modelItemsPerSec } from '../../../runtimes';
import { applyControls, type ControlValues } from '../../../lessons/controls';
import type { Lesson } from '../../../lessons/loadLessons';
import type { ExperimentSpec } from '../../../spec/experimentSpec';
import type { ChartPoint } from '../../../engine/sweep';
import { usePlan } from '../../plan/usePlan';
import { useLesson } from '../lessonContext';

/** The control whose choices are the graphs. */
export const GRAPH_CONTROL = 'graph';

/** Why the lesson cannot draw a chart of these graphs, or null. */
export function missingGraphs(lesson: Lesson, graphs: string[]): string | null {
  const control = lesson.controls.find((c) => c.id === GRAPH_CONTROL);
  const have = control?.kind === 'choice' ? control.choices.map((c) => c.value) : [];
  const missing = graphs.filter((g) => !have.includes(g));
  return missing.length === 0
    ? null
    : `this chart needs a choice control "${GRAPH_CONTROL}" with the graphs ${missing.join(', ')}`;
}

/** The lesson's experiment as graph `graph` at `values` plus `set`. */
export function graphSpec(
  lesson: Lesson,
  values: ControlValues,
  graph: string,
  set: ControlValues = {},
): ExperimentSpec {
  return applyControls(lesson.experimentSource, lesson.controls, {
    ...values,
    [GRAPH_CONTROL]: graph,
    ...set,
  });
}

/** The stream-graph bound in items/s (0 when it does not apply). */
/** Each graph's spec at each x (`set(x)`: the controls x sets; pass a stable function), kept
 * while the lesson and its values stay; `specs` is null, with the `problem` said, when the
 * lesson lacks one of the graphs. */
export function useGraphSpecs(
  lesson: Lesson,
  values: ControlValues,
  graphs: readonly { id: string }[],
  xs: readonly number[],
  set: (x: number) => ControlValues,
): { problem: string | null; specs: ExperimentSpec[][] | null } {
  const problem = missingGraphs(
    lesson,
    graphs.map((g) => g.id),
  );
  const specs = useMemo(
    () =>
      problem ? null : graphs.map((g) => xs.map((x) => graphSpec(lesson, values, g.id, set(x)))),
    [lesson, values, problem, graphs, xs, set],
  );
  return { problem, specs };
}

export const boundPerSec = (spec: ExperimentSpec) => modelItemsPerSec('stream-bound', spec) ?? 0;

/** A series' point measured on real threads at `x` (its y), if one has come in. */
export const measuredAt = (points: ChartPoint[] | undefined, x: number) =>
  points?.find((p) => p.x === x && p.source === 'threads')?.y;

/** A point of a chart's series. */
export interface SeriesStep extends PointStep {
  series: string;
}

/** A later point of the same x and source replaces the earlier one. */
const withPoint =
  (p: ChartPoint, series: string) =>
  (ps: Record<string, ChartPoint[]>): Record<string, ChartPoint[]> => ({
    ...ps,
    [series]: [...(ps[series] ?? []).filter((q) => q.x !== p.x || q.source !== p.source), p],
  });

/** A chart's points per series and the plan that measures them: `start` runs the steps (one plan
 * at a time; points come in as each finishes), then `onDone` with every point of a plan that ran
 * to its end. */
export function useSeriesPoints() {
  const { planner } = useLesson();
  const plan = usePlan(planner);
  const [points, setPoints] = useState<Record<string, ChartPoint[]>>({});
  const start = (
    label: string,
    steps: SeriesStep[],
    onDone?: (all: Record<string, ChartPoint[]>) => void,
  ) => {
    let collected: Record<string, ChartPoint[]> = {};
    plan.start({
      label,
      steps,
      onResult: (p, _i, { series }) => {
        collected = withPoint(p, series)(collected);
        setPoints(withPoint(p, series));
      },
      onEnd: ({ state }) => {
        if (state === 'done') onDone?.(collected);
      },
    });
  };
  return { points, plan, start };
}
