// ::packing-chart — thread packing's time over thread reduction's against the core count, at the
// lesson's thread count (the paper's Fig. 1 at 16 threads, drawn as TP/TR rather than its TR/TP):
// the idealised bound ⌈T/C⌉·C/T as the model curve, and a sweep of the cores where threads
// outnumber them, each point TP/TR of two runs — measured on real threads where both fit the
// visitor's cores, simulated by the twin beyond.
import { memo, useMemo, useState } from 'react';
import type { RatioStep } from '../../../engine/planner/steps';
import { SWEEP_REPEATS, type ChartPoint } from '../../../engine/sweep';
import { threadPacking } from '../../../model/seedModels';
import { threadReduction } from '../../../spec/experimentSpec';
import { counted, everyOne } from '../../../spec/words';
import { ModelChart } from '../../../views/ModelChart';
import { PlanProgressLine } from '../../plan/PlanProgressLine';
import { usePlan } from '../../plan/usePlan';
import { useLesson } from '../lessonContext';
import { useStageSweep } from '../useStageSweep';
import { barrierVariant } from '../packing';
import { CHART_WIDTH_PX } from './layout';
import { kindShows } from '../../../runtimes';

const StillModelChart = memo(ModelChart);
/** The x axis: the paper's Fig. 1 goes from 1 to 16 cores. */
const MAX_CORES = 16;

/** The label says what the curve is: a bound that ignores balancing, not a prediction, and its
 * highest point where the threads outnumber the cores (none with one thread). */
export function boundLabel(threads: number): string {
  const name = 'idealised bound ⌈T/C⌉·C/T for C < T (1 for C ≥ T), no balancing inside an interval';
  const points = Array.from({ length: Math.min(MAX_CORES, threads - 1) }, (_, i) => ({
    cores: i + 1,
    y: threadPacking({ threads, cores: i + 1 }).slowdownVsReduction,
  }));
  if (points.length === 0) return name;
  // The highest point; of equal ones the most cores (16 threads peak at 15 cores, 1.875).
  const top = points.reduce((best, p) => (p.y >= best.y ? p : best));
  const paper = threads === 16 ? '; the paper measured 1.337' : '';
  return `${name} (${top.y.toFixed(3)} at ${threads} on ${top.cores}${paper})`;
}

/** What the sweep will do, in words true for its plan. */
export function sweepHint(
  points: number,
  measured: number,
  threads: number,
  simulatedBecause: string | null,
): string {
  if (points === 0)
    return `With ${counted(threads, 'thread')} no core count is outnumbered: set more threads.`;
  const each = `Each point runs ${threads} threads and one thread per core on the same work and divides the times (the middle of ${SWEEP_REPEATS} runs each).`;
  if (measured === 0)
    return `${each} This sweep simulates ${everyOne(points, 'point')} on the twin${simulatedBecause ? ` (${simulatedBecause})` : ''}.`;
  if (measured === points)
    return `${each} This sweep measures ${everyOne(points, 'point')} on real threads.`;
  return `${each} This sweep measures ${measured} of its ${points} points on real threads (the budgets your cores hold) and simulates the other ${points - measured} on the twin.`;
}

export function PackingChartBlock() {
  const { spec, engine, engineFor, planner } = useLesson();
  // Points belong to the plan they were swept for: a change of the controls leaves them behind.
  const [swept, setSwept] = useState<{ jobs: RatioStep[]; points: ChartPoint[] }>({
    jobs: [],
    points: [],
  });
  const sweeping = usePlan(planner);
  const barrier = spec && kindShows(spec, 'packing-chart') ? spec : null;
  const threads = barrier?.threads ?? 1;
  const jobs: RatioStep[] = useMemo(() => {
    if (!barrier) return [];
    return Array.from({ length: Math.min(MAX_CORES, threads - 1) }, (_, i) => {
      const of = barrierVariant(barrier, { cores: i + 1 });
      const over = threadReduction(of);
      // The lesson's engine choice, the visitor's "simulation" included (engineFor): a sweep on
      // real threads after the visitor chose the twin gave noisy points labelled measured.
      const onThreads = [of, over].every((s) => engineFor(s).engine === 'threads');
      return {
        kind: 'ratio',
        label: `${i + 1} cores, ${onThreads ? 'measured' : 'simulated'}`,
        x: i + 1,
        of,
        over,
        engine: onThreads ? 'threads' : 'simulation',
      };
    });
  }, [barrier, threads, engineFor]);
  const points = swept.jobs === jobs ? swept.points : [];
  const sweep = () => {
    if (jobs.length === 0) return;
    setSwept({ jobs, points: [] });
    sweeping.start({
      label: `Sweep cores 1..${jobs.length}`,
      steps: jobs,
      onResult: (p) =>
        setSwept((s) => ({ jobs, points: s.jobs === jobs ? [...s.points, p] : [p] })),
    });
  };
  // The presenter's `s` runs this sweep while the chart is on the stage.
  useStageSweep(barrier ? () => sweeping.running || sweep() : null);
  if (!barrier) return <p className="hint">This chart draws the barrier runtime.</p>;
  const curve: Array<[number, number]> = Array.from({ length: MAX_CORES }, (_, i) => [
    i + 1,
    threadPacking({ threads, cores: i + 1 }).slowdownVsReduction,
  ]);
  const measured = jobs.filter((j) => j.engine === 'threads').length;
  return (
    <div className="packing-chart-block" data-testid="packing-chart">
      <StillModelChart
        xLabel="cores"
        yLabel={`time with ${counted(threads, 'thread')} / with one per core`}
        width={CHART_WIDTH_PX}
        curves={[{ id: 'bound', label: boundLabel(threads), points: curve }]}
        points={points}
        currentX={barrier.cores}
      />
      <div className="buttons">
        <button
          onClick={sweep}
          disabled={sweeping.running || jobs.length === 0}
          data-testid="sweep-cores"
        >
          {jobs.length === 0
            ? 'Sweep cores'
            : `Sweep cores 1..${jobs.length} at ${counted(threads, 'thread')}`}
        </button>
        <button onClick={() => setSwept({ jobs, points: [] })}>Clear points</button>
      </div>
      <PlanProgressLine plan={sweeping} />
      <p className="hint" data-testid="packing-chart-hint">
        {sweepHint(
          jobs.length,
          measured,
          threads,
          engine?.engine === 'simulation' ? engine.reason : null,
        )}
      </p>
    </div>
  );
}
