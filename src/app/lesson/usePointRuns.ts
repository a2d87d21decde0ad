// Runs a lesson chart's points — each job a spec run on real threads or simulated, in order, one
// at a time (src/engine/sweep.ts) — and keeps them per series. One batch of jobs at a time; a new
// start cancels the old one, and leaving the page cancels it.
import { useCallback, useEffect, useRef, useState } from 'react';
import { runSweep, type ChartPoint, type SweepJob } from '../../engine/sweep';
import type { LessonRun } from './useLessonRun';

export interface SeriesJob extends SweepJob {
  series: string;
}

export function usePointRuns(run: LessonRun) {
  const [points, setPoints] = useState<Record<string, ChartPoint[]>>({});
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const cancelRef = useRef<(() => void) | null>(null);
  useEffect(() => () => cancelRef.current?.(), []);

  const start = useCallback(
    (jobs: SeriesJob[], onDone?: (all: Record<string, ChartPoint[]>) => void) => {
      cancelRef.current?.();
      run.stop();
      setError(null);
      setRunning(true);
      const seriesOf = new Map<SweepJob, string>(jobs.map((j) => [j, j.series]));
      const collected: Record<string, ChartPoint[]> = {};
      // A later point of the same x and source replaces the earlier one.
      const add = (p: ChartPoint, series: string) => (ps: Record<string, ChartPoint[]>) => ({
        ...ps,
        [series]: [...(ps[series] ?? []).filter((q) => q.x !== p.x || q.source !== p.source), p],
      });
      cancelRef.current = runSweep(
        jobs,
        run.threads,
        (p, job) => {
          const series = seriesOf.get(job)!;
          Object.assign(collected, add(p, series)(collected));
          setPoints(add(p, series));
        },
        (e) => {
          cancelRef.current = null;
          setRunning(false);
          setError(e);
          if (!e) onDone?.(collected);
        },
      );
    },
    [run],
  );

  return { points, running, error, start };
}
