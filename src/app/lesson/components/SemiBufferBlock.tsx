// ::semi-latency — semi-buffer size against latency, measured: for each size (the lesson's `semi`
// control, in cache lines of 8-byte items) BatchQueue's throughput with nothing between items, and
// the mean time an item waited before the consumer saw it while the producer offers one item per
// µs — a semi-buffer of S items fills in S µs, so an item waits about (S − 1) / 2 µs for the rest
// of its semi-buffer. The probe's stream ends on a partial semi-buffer, which only flush() hands
// over: the block says how many items that was and how long the last one waited.
import { useMemo } from 'react';
import { ITEMS_PER_LINE } from '../../../spec/raceConfig';
import { measured } from '../../../live/raceSummary';
import { spreadOf } from '../../../model/spread';
import { LatencyChart } from '../../../views/LatencyChart';
import { counted } from '../../../spec/words';
import { formatRate } from '../../../views/format';
import { ControlsPanel } from '../ControlsPanel';
import { useLesson } from '../lessonContext';
import {
  LATENCY_OFFERED_PER_S,
  semiConfigs,
  semiPlan,
  SEMI_LINE_CHOICES,
} from '../../queues/racePlans';
import { useRaceSession } from '../useRaceSession';
import { PlanProgressLine } from '../../plan/PlanProgressLine';
import { CHART_WIDTH_PX } from './layout';

export function SemiBufferBlock() {
  const { lesson, values, change } = useLesson();
  const { state, plan, start } = useRaceSession('semi');
  const lines = Number(values.semi) || 1;
  const controls = lesson.controls.filter((c) => c.id === 'semi');
  const points = useMemo(
    () =>
      SEMI_LINE_CHOICES.flatMap((l) => {
        const c = semiConfigs(l);
        const t = measured(state.results, c.throughput);
        const w = measured(state.results, c.latency);
        if (!t || !w) return [];
        const waitUs = spreadOf(w.runs.map((r) => r.latencyMeanNs / 1000)).median;
        return [{ lines: l, itemsPerS: t.rate.median, waitUs, current: l === lines }];
      }),
    [state.results, lines],
  );
  const probe = measured(state.results, semiConfigs(lines).latency)?.runs.at(-1) ?? null;
  const semiItems = lines * ITEMS_PER_LINE;
  return (
    <div className="semi-latency" data-testid="semi-latency">
      <ControlsPanel controls={controls} values={values} onChange={change} />
      {state.unavailable ? (
        <p className="notice">Measuring latency needs real threads: {state.unavailable}</p>
      ) : (
        <>
          <div className="buttons">
            <button
              data-testid="semi-run"
              onClick={() => start(`Measure ${counted(lines, 'line')}`, semiPlan([lines]))}
            >
              Measure {counted(lines, 'line')}
            </button>
            <button
              data-testid="semi-run-all"
              onClick={() => start('Measure every size', semiPlan(SEMI_LINE_CHOICES))}
            >
              Measure every size
            </button>
          </div>
          <PlanProgressLine plan={plan} />
        </>
      )}
      <p className="hint">
        {lines} line{lines === 1 ? '' : 's'} of 8-byte items: {semiItems} items per semi-buffer.
        Offered {formatRate(LATENCY_OFFERED_PER_S)} items/s, a semi-buffer fills in {semiItems} µs,
        so the semi-buffer alone makes an item wait{' '}
        <span data-kind="model">{((semiItems - 1) / 2).toFixed(1)} µs</span> on average before it is
        handed over.
      </p>
      <LatencyChart points={points} widthPx={CHART_WIDTH_PX} />
      {probe && (
        <p data-testid="flush-tail" data-kind="measured" data-tail-items={probe.tailItems}>
          Measured here: items waited {(probe.latencyMeanNs / 1000).toFixed(1)} µs on average
          (median {(probe.latencyMedianNs / 1000).toFixed(1)}, 99th percentile{' '}
          {(probe.latencyP99Ns / 1000).toFixed(1)}). The stream of {probe.made} items ended{' '}
          {probe.tailItems} items into a semi-buffer of {semiItems}: only the producer&apos;s final{' '}
          <code>flush()</code> handed those over, and the last one waited{' '}
          {(probe.tailLatencyNs / 1000).toFixed(1)} µs. Without it they would wait for items that
          never come.
        </p>
      )}
    </div>
  );
}
