// ::branch-compare — a linear pipeline and a branched graph of the same total work against the
// thread count: the model's bound for each, simulated points (a core per thread), and points
// measured on the visitor's threads up to their cores. The measured gain of batching on the
// branched graph goes to the lesson's paper row `branched-batching`.
import { visitorCores } from '../../../engine/isolation';
import { SeriesChart, type Series } from '../../../views/SeriesChart';
import { stageColor } from '../../../views/stageColors';
import { PlanProgressLine } from '../../plan/PlanProgressLine';
import { useLesson } from '../lessonContext';
import { CHART_WIDTH_PX } from './layout';
import {
  boundPerSec,
  graphSpec,
  measuredAt,
  useGraphSpecs,
  useSeriesPoints,
  type SeriesStep,
} from './phaserCharts';

const THREADS = [1, 2, 4, 8];
const GRAPHS = [
  { id: 'linear', label: 'linear: six stages, the work split evenly' },
  { id: 'branched', label: 'branched: the same work, one slow branch' },
];
/** Simulated points: this many items each (every item costs each task a few events). */
const TWIN_ITEMS = 600;
/** The paper row compares batching on and off on the branched graph at this batch size. */
const ROW_BATCH = 64;
const atThreads = (threads: number) => ({ threads });

export function BranchCompareBlock() {
  const { lesson, values, engine, reportMeasured } = useLesson();
  const runs = useSeriesPoints();
  const { problem, specs } = useGraphSpecs(lesson, values, GRAPHS, THREADS, atThreads);
  if (!specs) return <p className="notice error">{problem}</p>;
  const cores = visitorCores();
  const measuredThreads = THREADS.filter((t) => t <= cores);
  const onThreads = engine?.engine === 'threads';
  const rowThreads = Math.max(...measuredThreads);
  const series: Series[] = GRAPHS.map((g, i) => ({
    id: g.id,
    label: g.label,
    color: stageColor(i),
    curve: THREADS.map((t, k) => [t, boundPerSec(specs[i][k])] as [number, number]),
    points: runs.points[g.id] ?? [],
  }));
  const measure = () => {
    const jobs: SeriesStep[] = GRAPHS.flatMap((g, i) =>
      THREADS.map((x, k) => ({
        kind: 'point' as const,
        label: `${g.id}, ${x} threads, simulated`,
        series: g.id,
        x,
        spec: { ...specs[i][k], items: TWIN_ITEMS },
        engine: 'simulation' as const,
      })),
    );
    if (onThreads) {
      GRAPHS.forEach((g, i) =>
        THREADS.forEach((x, k) => {
          if (x <= cores)
            jobs.push({
              kind: 'point',
              label: `${g.id}, ${x} threads, measured`,
              series: g.id,
              x,
              spec: specs[i][k],
              engine: 'threads',
              sizeByTrial: true,
            });
        }),
      );
      for (const batch of [1, ROW_BATCH]) {
        const spec = graphSpec(lesson, values, 'branched', { threads: rowThreads, batch });
        jobs.push({
          kind: 'point',
          label: `branched, batch ${batch}, measured`,
          series: 'branched-batch',
          x: batch,
          spec,
          engine: 'threads',
          sizeByTrial: true,
        });
      }
    }
    runs.start(onThreads ? 'Measure both graphs' : 'Simulate both graphs', jobs, (all) => {
      const off = measuredAt(all['branched-batch'], 1);
      const on = measuredAt(all['branched-batch'], ROW_BATCH);
      if (off && on) reportMeasured('branched-batching', on / off);
    });
  };
  const linear = measuredAt(runs.points.linear, rowThreads);
  const branched = measuredAt(runs.points.branched, rowThreads);
  return (
    <div className="branch-compare" data-testid="branch-compare">
      <SeriesChart
        xLabel="threads"
        yLabel="items/s"
        series={series}
        width={CHART_WIDTH_PX}
        testId="branch-compare-plot"
      />
      <div className="buttons">
        <button onClick={measure} disabled={runs.plan.running} data-testid="branch-measure">
          {onThreads ? 'Measure both graphs on your threads' : 'Simulate both graphs'}
        </button>
      </div>
      <PlanProgressLine plan={runs.plan} />
      <p className="hint">
        {onThreads
          ? `Simulates 1 to 8 threads (a core each) and measures up to your ${cores} cores, then the branched graph with batch ${ROW_BATCH} and without.`
          : `Simulates 1 to 8 threads, a core each (${engine?.reason ?? 'no real threads here'}).`}
        {linear && branched
          ? ` Measured here at ${rowThreads} threads: branched ÷ linear = ${(branched / linear).toFixed(2)}.`
          : ''}
      </p>
    </div>
  );
}
