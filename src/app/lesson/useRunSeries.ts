// A lesson component's own measurements: a list of specs run one after another, each on real
// threads where the lesson's engine choice allows it and on the twin otherwise, reported as each
// finishes. One series per component at a time; a new one, or leaving the page, ends the old. The
// threads engine runs one run at a time for the whole page, so a series started while the
// experiment runs replaces that run, and a run started meanwhile interrupts the series (said so).
import { useCallback, useEffect, useRef, useState } from 'react';
import type { EngineKind } from '../../engine/pipeline/pipelineRun';
import type { ThreadsEngine } from '../../engine/pipeline/threadsEngine';
import { measureRun, simulateRun, type FinishedRun } from '../../engine/sweep';
import type { ExperimentSpec } from '../../spec/experimentSpec';

export interface SeriesJob {
  spec: ExperimentSpec;
  engine: EngineKind;
}

export function useRunSeries(threads: () => ThreadsEngine) {
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<string | null>(null);
  /** Bumped by every start and cancel: a series whose number is stale stops. */
  const series = useRef(0);
  useEffect(
    () => () => {
      series.current++;
    },
    [],
  );

  const start = useCallback(
    async (jobs: SeriesJob[], onRun: (index: number, run: FinishedRun) => void) => {
      const mine = ++series.current;
      const stale = () => series.current !== mine;
      setRunning(true);
      setError(null);
      try {
        for (const [i, job] of jobs.entries()) {
          // Each run in its own macrotask, so the page keeps drawing between twin runs.
          await new Promise((r) => setTimeout(r, 0));
          if (stale()) return;
          const run =
            job.engine === 'threads'
              ? await measureRun(threads(), job.spec, stale, { firstOut: true })
              : simulateRun(job.spec);
          if (stale()) return;
          if (!run) {
            setError('Interrupted: another run took the threads. Press the button again.');
            return;
          }
          onRun(i, run);
        }
      } catch (e) {
        if (!stale()) setError(e instanceof Error ? e.message : String(e));
      } finally {
        if (!stale()) setRunning(false);
      }
    },
    [threads],
  );

  const cancel = useCallback(() => {
    series.current++;
    setRunning(false);
  }, []);

  return { running, error, start, cancel };
}
