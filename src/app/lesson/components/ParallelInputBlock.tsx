// ::parallel-input — the input end (seed 000 §4.2, Dempsey Part 1): the experiment's mirror image
// (a serial scan cutting the text into spans, then t parallel readers; twoStageVariants.ts) run
// with 1..8 readers and once serially, on real threads up to max(4, your cores) and on the twin
// beyond: throughput against readers with the scan's cap λ_max = 1/T_scan (Eq. 9) and the readers'
// λ_upper = t/T_read (Eq. 8). Reports the paper rows `four-readers` (4 readers over 1) and
// `input-two-stage` (the best two-stage run over the serial one).
import { useState } from 'react';
import { visitorCores } from '../../../engine/isolation';
import type { FinishedRun } from '../../../engine/planner/measure';
import { runStepOf } from '../../../engine/planner/steps';
import { itemsForMs, type ChartPoint } from '../../../engine/sweep';
import { kindShows, modelItemsPerSec } from '../../../runtimes';
import { BUDGETS } from '../../../spec/limits';
import type { EngineKind } from '../../../engine/pipeline/pipelineRun';
import { parseExperimentSpec, type ExperimentSpec } from '../../../spec/experimentSpec';
import { inputMirror, withVariant } from '../../../spec/twoStageVariants';
import { ModelChart } from '../../../views/ModelChart';
import { formatCount, kindOf } from '../../../views/viewHelpers';
import { PlanProgressLine } from '../../plan/PlanProgressLine';
import { usePlan } from '../../plan/usePlan';
import { useLesson } from '../lessonContext';
import { CHART_WIDTH_PX } from './layout';

export const MAX_READERS = 8;
const RUN_MS = 250;

const withReaders = (mirror: ExperimentSpec, t: number) =>
  parseExperimentSpec({
    ...mirror,
    stages: [mirror.stages[0], { ...mirror.stages[1], threads: t }],
    threads: undefined,
    tokens: undefined,
  });

export function ParallelInputBlock() {
  const { spec, engineFor, planner, reportMeasured } = useLesson();
  const series = usePlan(planner);
  const [points, setPoints] = useState<ChartPoint[]>([]);
  const [serial, setSerial] = useState<FinishedRun | null>(null);
  if (!spec || !kindShows(spec, 'parallel-input'))
    return <p className="notice">The input end mirrors a two-stage-output experiment.</p>;
  const mirror = withVariant(inputMirror(spec), 'two-stage');
  const readers = Array.from({ length: MAX_READERS }, (_, i) => i + 1);
  const measuredUpTo = Math.max(4, visitorCores());

  const measure = () => {
    const one = withReaders(mirror, 1);
    const items = Math.min(itemsForMs(one, RUN_MS), BUDGETS.inputRecords);
    const specs = readers.map((t) => ({ ...withReaders(mirror, t), items }));
    const alone = { ...withVariant(one, 'serial'), items };
    // Measured where allowed, each with the twin's point beside it; the twin alone beyond.
    const job = (s: ExperimentSpec, engine: EngineKind, readers: number) => ({
      ...runStepOf(readers === 0 ? 'serial' : `${readers} readers`, s, engine),
      readers,
    });
    const jobs = [
      job(alone, engineFor(alone).engine, 0),
      ...specs.flatMap((s, i) => {
        const engine = i + 1 <= measuredUpTo ? engineFor(s).engine : 'simulation';
        return [
          job(s, engine, i + 1),
          ...(engine === 'threads' ? [job(s, 'simulation', i + 1)] : []),
        ];
      }),
    ];
    setPoints([]);
    setSerial(null);
    const byReaders: Record<number, FinishedRun> = {};
    let serialRun: FinishedRun | null = null;
    series.start({
      label: `Run the input end with 1..${MAX_READERS} readers`,
      steps: jobs,
      onResult: (r, _i, { readers: t }) => {
        if (t === 0) {
          serialRun = r;
          setSerial(r);
          return;
        }
        setPoints((ps) => [...ps, { x: t, y: r.summary.itemsPerSec, source: r.source }]);
        if (r.source === 'simulation' && byReaders[t]) return;
        byReaders[t] = r;
        const measured = (f: FinishedRun | null | undefined): f is FinishedRun =>
          f?.source === 'threads';
        if (t === 4 && measured(byReaders[1]) && measured(byReaders[4]))
          reportMeasured(
            'four-readers',
            byReaders[4].summary.itemsPerSec / byReaders[1].summary.itemsPerSec,
          );
        const best = Object.values(byReaders).filter(measured);
        if (measured(serialRun) && best.length > 0)
          reportMeasured(
            'input-two-stage',
            Math.max(...best.map((b) => b.summary.itemsPerSec)) / serialRun.summary.itemsPerSec,
          );
      },
    });
  };

  const curve = (overlay: 'lambda-max' | 'lambda-upper', label: string) => ({
    id: overlay,
    label,
    dashed: overlay === 'lambda-upper',
    points: readers.flatMap((t): Array<[number, number]> => {
      const y = modelItemsPerSec(overlay, withReaders(mirror, t));
      return y === null ? [] : [[t, y]];
    }),
  });
  // The first point at each count: measured where it was, else simulated.
  const one = points.find((p) => p.x === 1);
  const four = points.find((p) => p.x === 4 && p.source === one?.source);
  return (
    <div className="parallel-input" data-testid="parallel-input">
      <div className="buttons">
        <button onClick={measure} disabled={series.running} data-testid="measure-readers">
          Run the input end with 1..{MAX_READERS} readers
        </button>
      </div>
      <PlanProgressLine plan={series} />
      <ModelChart
        xLabel="readers"
        yLabel="throughput (records/s)"
        curves={[
          curve('lambda-max', 'λ_max = 1/T_scan, the serial scan (Eq. 9)'),
          curve('lambda-upper', 'λ_upper = t/T_read, the readers (Eq. 8)'),
        ].filter((c) => c.points.length > 0)}
        points={points}
        width={CHART_WIDTH_PX}
        height={300}
      />
      <p className="hint">
        Measured on real threads up to {measuredUpTo} readers (where this page may use them),
        simulated beyond.
        {one && four && (
          <>
            {' '}
            Four readers read <b data-testid="four-readers">{(four.y / one.y).toFixed(2)}×</b> as
            fast as one ({kindOf(four.source)}).
          </>
        )}
        {serial && (
          <>
            {' '}
            One thread scanning and parsing alone: {formatCount(serial.summary.itemsPerSec)}{' '}
            records/s ({kindOf(serial.source)}).
          </>
        )}
      </p>
    </div>
  );
}
