// ::batch-chart — throughput against the batch size for the push/pop micro-benchmark (an acyclic
// stream: batched) and the thread ring (a cycle: cycle detection keeps it non-batched), the model's
// curve for each, simulated points, and points measured on the visitor's threads; the measured
// ratios go to the lesson's paper rows `push-pop-batching` and `thread-ring-hop`.
import { SeriesChart, type Series } from '../../../views/SeriesChart';
import { threadColor } from '../../../views/threadColors';
import { formatRate } from '../../../views/format';
import { PlanProgressLine } from '../../plan/PlanProgressLine';
import { useLesson } from '../lessonContext';
import { CHART_WIDTH_PX } from './layout';
import {
  boundPerSec,
  measuredAt,
  useGraphSpecs,
  useSeriesPoints,
  type SeriesStep,
} from './phaserCharts';

export const BATCHES = [1, 8, 64, 512, 4096];
const GRAPHS = [
  { id: 'push-pop', label: 'push/pop: one stream, batched' },
  { id: 'ring', label: 'thread ring: a cycle, not batched' },
];
/** The micro-benchmarks run on two threads (one producer, one consumer; the ring's token). */
const THREADS = 2;
/** Simulated points: this many items (a micro-benchmark's twin costs a few events per item). */
const TWIN_ITEMS = 20_000;
/** Measured points: runs sized to ~0.4 s from a short trial run on the same threads (the model's
 * rate knows nothing of the machine's load), from at most this many items. */
const MEASURE_ITEMS = 100_000_000;
const atBatch = (batch: number) => ({ batch, threads: THREADS });

export function BatchChartBlock() {
  const { lesson, values, engine, reportMeasured } = useLesson();
  const runs = useSeriesPoints();
  const { problem, specs } = useGraphSpecs(lesson, values, GRAPHS, BATCHES, atBatch);
  if (!specs) return <p className="notice error">{problem}</p>;
  const series: Series[] = GRAPHS.map((g, i) => ({
    id: g.id,
    label: g.label,
    color: threadColor(i),
    curve: BATCHES.map((b, k) => [b, boundPerSec(specs[i][k])] as [number, number]),
    points: (runs.points[g.id] ?? []).map((p) => ({
      ...p,
      note:
        g.id === 'ring' && p.x === BATCHES.at(-1) ? 'cycle found: 1 element per phase' : undefined,
    })),
  }));
  const onThreads = engine?.engine === 'threads';
  const measure = () => {
    const jobs: SeriesStep[] = GRAPHS.flatMap((g, i) =>
      BATCHES.map((x, k) => ({
        kind: 'point' as const,
        label: `${g.id}, batch ${x}, simulated`,
        series: g.id,
        x,
        spec: { ...specs[i][k], items: TWIN_ITEMS },
        engine: 'simulation' as const,
      })),
    );
    if (onThreads)
      GRAPHS.forEach((g, i) =>
        BATCHES.forEach((x, k) =>
          jobs.push({
            kind: 'point',
            label: `${g.id}, batch ${x}, measured`,
            series: g.id,
            x,
            spec: { ...specs[i][k], items: MEASURE_ITEMS },
            engine: 'threads',
            sizeByTrial: true,
          }),
        ),
      );
    runs.start(onThreads ? 'Measure batch sizes' : 'Simulate batch sizes', jobs, (all) => {
      const first = BATCHES[0];
      const last = BATCHES[BATCHES.length - 1];
      const unbatched = measuredAt(all['push-pop'], first);
      const batched = measuredAt(all['push-pop'], last);
      if (unbatched && batched) reportMeasured('push-pop-batching', batched / unbatched);
      const ring = measuredAt(all.ring, last);
      if (ring) reportMeasured('thread-ring-hop', 1e6 / ring);
    });
  };
  const one = measuredAt(runs.points['push-pop'], 1);
  const most = measuredAt(runs.points['push-pop'], BATCHES.at(-1)!);
  const gain = one && most ? most / one : null;
  return (
    <div className="batch-chart" data-testid="batch-chart">
      <SeriesChart
        xLabel="batch: elements per phase"
        yLabel="elements/s (ring: hops/s)"
        series={series}
        xScale="log2"
        yScale="log"
        width={CHART_WIDTH_PX}
        testId="batch-chart-plot"
      />
      <div className="buttons">
        <button onClick={measure} disabled={runs.plan.running} data-testid="batch-measure">
          {onThreads ? 'Measure batch sizes on your threads' : 'Simulate batch sizes'}
        </button>
      </div>
      <PlanProgressLine plan={runs.plan} />
      <p className="hint">
        {onThreads
          ? `Runs each batch size on ${THREADS} of your threads (a short trial run to size them, then 3 runs of about 0.4 s each, the middle one counts) after simulating it.`
          : `Simulates each batch size (${engine?.reason ?? 'no real threads here'}).`}
        {gain !== null &&
          ` Measured here: batching ${BATCHES.at(-1)} elements per phase ran push/pop ${gain.toFixed(1)}× as fast as one per phase (${formatRate(one!)} → ${formatRate(most!)} elements/s).`}
      </p>
    </div>
  );
}
