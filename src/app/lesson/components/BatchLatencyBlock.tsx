// ::batch-latency — latency against throughput (Dempsey's batches, seed 002): the experiment run
// at batch sizes 1..4096 on the same data, plotting the time until the first written item (one
// batch must be formatted and written first) and the throughput against the batch size: each
// measured on real threads where the engine choice allows it, the twin's beside, with the models
// B × (T_format + T_write) for the first item and Eq. 10's λ_eu for the throughput.
import { useState } from 'react';
import type { ChartPoint } from '../../../engine/sweep';
import { runStepOf } from '../../../engine/planner/steps';
import { itemsForMs } from '../../../engine/sweep';
import { meanServiceUs } from '../../../model';
import { kindShows, modelItemsPerSec } from '../../../runtimes';
import type { EngineKind } from '../../../engine/pipeline/pipelineRun';
import { parseExperimentSpec, type ExperimentSpec } from '../../../spec/experimentSpec';
import { ModelChart } from '../../../views/ModelChart';
import { PlanProgressLine } from '../../plan/PlanProgressLine';
import { usePlan } from '../../plan/usePlan';
import { useLesson } from '../lessonContext';
import { CHART_WIDTH_PX } from './layout';

export const BATCH_SIZES = [1, 4, 16, 64, 256, 1024, 4096];
/** The run at the middle batch size takes about this long. */
const RUN_MS = 250;

/** The experiment at each batch size its pool budget allows, all with the same items. */
function batchSpecs(spec: ExperimentSpec): ExperimentSpec[] {
  const items = Math.min(spec.items, Math.max(4 * 4096, itemsForMs(spec, RUN_MS)));
  return BATCH_SIZES.flatMap((batchItems) => {
    try {
      return [parseExperimentSpec({ ...spec, batchItems, items })];
    } catch {
      return []; // this pool of buffers does not fit batches that large
    }
  });
}

export function BatchLatencyBlock() {
  const { spec, engineFor, planner } = useLesson();
  const series = usePlan(planner);
  const [firstOut, setFirstOut] = useState<ChartPoint[]>([]);
  const [rates, setRates] = useState<ChartPoint[]>([]);
  if (!spec || !kindShows(spec, 'batch-latency'))
    return <p className="notice">Batch sizes are for a two-stage-output experiment.</p>;

  const measure = () => {
    const specs = batchSpecs(spec);
    setFirstOut([]);
    setRates([]);
    // Measured (or simulated, where threads are out of reach) first, then the twin's beside.
    const job = (s: ExperimentSpec, engine: EngineKind) =>
      runStepOf(`batch ${s.batchItems}`, s, engine);
    series.start({
      label: 'Run batch sizes',
      steps: specs.flatMap((s) => [
        job(s, engineFor(s).engine),
        ...(engineFor(s).engine === 'threads' ? [job(s, 'simulation')] : []),
      ]),
      onResult: (r, _i, step) => {
        const x = step.spec.batchItems!;
        if (r.firstOutUs !== null)
          setFirstOut((ps) => [...ps, { x, y: r.firstOutUs! / 1000, source: r.source }]);
        setRates((ps) => [...ps, { x, y: r.summary.itemsPerSec, source: r.source }]);
      },
    });
  };

  const perItemUs = spec.stages.reduce((sum, s) => sum + meanServiceUs(s.service), 0);
  const xs = BATCH_SIZES;
  const latencyModel = {
    id: 'one-batch',
    label: 'one batch formatted, then written: B × (T_format + T_write)',
    points: xs.map((b): [number, number] => [b, (b * perItemUs) / 1000]),
  };
  const eu = modelItemsPerSec('lambda-eu', spec);
  const rateModel = {
    id: 'lambda-eu',
    label: 'λ_eu (Eq. 10)',
    points: eu === null ? [] : xs.map((b): [number, number] => [b, eu]),
  };
  return (
    <div className="batch-latency" data-testid="batch-latency">
      <div className="buttons">
        <button onClick={measure} disabled={series.running} data-testid="measure-batches">
          Run batch sizes {xs[0]}..{xs.at(-1)}
        </button>
      </div>
      <PlanProgressLine plan={series} />
      <ModelChart
        xLabel="batch size (items)"
        yLabel="first item written after (ms)"
        curves={[latencyModel]}
        points={firstOut}
        currentX={spec.batchItems}
        width={CHART_WIDTH_PX}
        height={280}
        logX
        logY
      />
      <ModelChart
        xLabel="batch size (items)"
        yLabel="throughput (items/s)"
        curves={rateModel.points.length ? [rateModel] : []}
        points={rates}
        currentX={spec.batchItems}
        width={CHART_WIDTH_PX}
        height={280}
        logX
      />
    </div>
  );
}
