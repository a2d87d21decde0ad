// What a lesson's components share: the lesson, its control values and the spec they give, the
// engine chosen for it, the page's run planner, the run in flight, the model chart's points and sweep, the values the
// lesson's views measured for its paper rows, and recording and replaying its runs. The lesson page
// and the presenter provide it (useLessonSession); each registered component (registry.ts) takes
// what it needs with useLesson().
import { createContext, useContext } from 'react';
import type { ChooseEngineResult } from '../../engine/pipeline/chooseEngine';
import type { RunPlanner } from '../../engine/planner/steps';
import type { ControlValues } from '../../lessons/controls';
import type { Lesson } from '../../lessons/loadLessons';
import type { ExperimentSpec } from '../../spec/experimentSpec';
import type { RaceSession } from '../queues/raceSession';
import type { LessonReplay } from './replay/useRecordReplay';
import type { FinishedRun, LessonRun, RunEvent } from './useLessonRun';
import type { StageSweeps } from './stageSweeps';
import type { LessonSweep } from './useSweep';

export interface LessonContextValue {
  lesson: Lesson;
  values: ControlValues;
  /** Sets one control (and the URL with it). */
  change: (id: string, value: number | string) => void;
  /** Sets several controls at once. */
  changeMany: (changes: ControlValues) => void;
  /** The experiment at the current values, or null with specError saying why. */
  spec: ExperimentSpec | null;
  specError: string | null;
  engine: ChooseEngineResult | null;
  /** The engine another spec of this lesson would run on (a component's own runs). */
  engineFor: (spec: ExperimentSpec) => ChooseEngineResult;
  /** The page's run planner: every run a component makes is a plan submitted here (usePlan). */
  planner: RunPlanner;
  run: LessonRun;
  sweep: LessonSweep;
  /** Values measured on the visitor's threads for the lesson's paper rows, by row id. */
  measured: Record<string, number>;
  reportMeasured: (rowId: string, value: number) => void;
  /** Recording this lesson's runs, and the replay (if any) driving its views. */
  replay: LessonReplay;
  /** The runs this page completed, oldest first (at most 200). */
  runs: FinishedRun[];
  /** Calls `listener` whenever a run starts or ends; returns the unsubscribe function. */
  onRunEvent: (listener: (event: RunEvent) => void) => () => void;
  /** The sweeps the components on screen offer (the presenter's `s` runs the newest). */
  stageSweeps: StageSweeps;
  /** The queue race's runs on this page and its panels' plans (lesson 5). */
  races: RaceSession;
  /** Whether the run of this spec object was started at the controls' settings (not a view's own
   * run of another spec). */
  ranAtControls: (runSpec: ExperimentSpec) => boolean;
}

export const LessonContext = createContext<LessonContextValue | null>(null);

export function useLesson(): LessonContextValue {
  const ctx = useContext(LessonContext);
  if (!ctx) throw new Error('a lesson component must be placed inside a LessonPage');
  return ctx;
}
