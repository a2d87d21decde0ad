// Runs several specs one after another on the lesson's one run (so each is drawn live like any
// run), each on the engine the page would choose for it, collecting the finished runs by key —
// the balancing lesson's "both layouts", "one thread per core vs oversubscribed" and "measure, then
// run the sized configuration". A run started by anything else, or a stop, ends the sequence.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ExperimentSpec } from '../../spec/experimentSpec';
import { useLesson } from './lessonContext';
import type { FinishedRun } from './useLessonRun';

export interface SequenceStep {
  key: string;
  spec: ExperimentSpec;
}

export type SequenceStatus = 'idle' | 'running' | 'done' | 'stopped';
export type SequenceResults = Record<string, Omit<FinishedRun, 'id'>>;

interface Progress {
  steps: SequenceStep[];
  index: number;
  results: SequenceResults;
  status: SequenceStatus;
  onDone?: (results: SequenceResults) => void;
}

const IDLE: Progress = { steps: [], index: 0, results: {}, status: 'idle' };

export function useRunSequence() {
  const { run, onRunEvent, engineFor } = useLesson();
  const [progress, setProgress] = useState<Progress>(IDLE);
  // The listener reads and advances the sequence between renders; state mirrors it for drawing.
  const live = useRef<Progress>(IDLE);
  const update = useCallback((next: Progress) => {
    live.current = next;
    setProgress(next);
  }, []);
  const startStep = useCallback(
    (step: SequenceStep) => run.start(step.spec, engineFor(step.spec).engine),
    [run, engineFor],
  );

  /** Runs `steps` in order; `onDone` gets every result once the last one finished. `onto`: results
   * kept from an earlier sequence. */
  const start = useCallback(
    (
      steps: SequenceStep[],
      onDone?: (results: SequenceResults) => void,
      onto: SequenceResults = {},
    ) => {
      if (steps.length === 0) return;
      update({ steps, index: 0, results: onto, status: 'running', onDone });
      startStep(steps[0]);
    },
    [startStep, update],
  );

  useEffect(
    () =>
      onRunEvent((event) => {
        const p = live.current;
        if (p.status !== 'running') return;
        const step = p.steps[p.index];
        if (event.type === 'started') {
          if (event.spec !== step.spec) update({ ...p, status: 'stopped' });
          return;
        }
        if (event.run.spec !== step.spec) return;
        if (event.state !== 'done') return update({ ...p, status: 'stopped' });
        const results = { ...p.results, [step.key]: event.run };
        const index = p.index + 1;
        if (index < p.steps.length) {
          update({ ...p, index, results });
          startStep(p.steps[index]);
        } else {
          update({ ...p, results, status: 'done' });
          p.onDone?.(results);
        }
      }),
    [onRunEvent, startStep, update],
  );

  return {
    status: progress.status,
    /** The step running now (while running). */
    current: progress.status === 'running' ? progress.steps[progress.index] : null,
    results: progress.results,
    start,
  };
}
