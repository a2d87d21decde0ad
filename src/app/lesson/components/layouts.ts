// The balancing lesson's layouts: its `layout` choice control lists the same work in pairs — the
// thread-per-stage pipeline, then its collapsed form (lessons/03: ferret 6 and 3, dedup 5 and 3).
// Helpers its components share: the pair the current choice belongs to, the spec of each, the
// latest finished run of a spec, and a run's stage counters per station (fused groups together).
import { applyControls, type ControlValues } from '../../../lessons/controls';
import type { Lesson } from '../../../lessons/loadLessons';
import type { ExperimentSpec } from '../../../spec/experimentSpec';
import { sameSpec } from '../../../spec/sameSpec';
import { stageGroups } from '../../../spec/stageGroups';
import type { StageCounters } from '../../../telemetry';
import type { BreakdownStation } from '../../../views/StageBreakdown';
import type { FinishedRun } from '../useLessonRun';

export const LAYOUT_CONTROL = 'layout';

export interface Layout {
  value: string;
  label: string;
}

/** The pair (thread-per-stage, collapsed) the current layout belongs to; null without one. */
export function layoutPair(lesson: Lesson, values: ControlValues): [Layout, Layout] | null {
  const control = lesson.controls.find((c) => c.id === LAYOUT_CONTROL);
  if (control?.kind !== 'choice') return null;
  const at = control.choices.findIndex((c) => c.value === values[LAYOUT_CONTROL]);
  const first = at - (at % 2);
  const pair = control.choices.slice(first, first + 2);
  return pair.length === 2 ? [pair[0], pair[1]] : null;
}

/** The experiment at the current values with another layout, or null if that is not valid. */
export function specWith(
  lesson: Lesson,
  values: ControlValues,
  changes: ControlValues,
): ExperimentSpec | null {
  try {
    return applyControls(lesson.experimentSource, lesson.controls, { ...values, ...changes });
  } catch {
    return null;
  }
}

/** The most recent finished run of exactly this spec. */
export function latestRun(runs: FinishedRun[], spec: ExperimentSpec): FinishedRun | undefined {
  for (let i = runs.length - 1; i >= 0; i--) if (sameSpec(runs[i].spec, spec)) return runs[i];
  return undefined;
}

/** Stage counters per station: a collapsed spec's fused group is one station whose threads serve
 * every stage of it (their waits are booked to its first stage, as the runtimes do). */
export function stationsOf(spec: ExperimentSpec, counters: StageCounters[]): BreakdownStation[] {
  return stageGroups(spec).map((group) => ({
    stages: group.map((i) => ({
      index: i,
      name: spec.stages[i].name,
      busyUs: counters[i]?.busyUs ?? 0,
    })),
    threads: group.reduce((sum, i) => sum + spec.stages[i].threads, 0),
    idleUs: group.reduce((sum, i) => sum + (counters[i]?.idleUs ?? 0), 0),
    blockedUs: group.reduce((sum, i) => sum + (counters[i]?.blockedUs ?? 0), 0),
  }));
}

/** Seconds with three significant digits. */
export const seconds = (us: number) => `${(us / 1e6).toPrecision(3)} s`;
