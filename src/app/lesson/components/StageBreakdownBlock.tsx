// ::stage-breakdown — the paper's Fig. 2 for both layouts side by side: each station's useful,
// idle and blocked thread time from the run's stage counters (live while it runs), the bottleneck
// marked, and each layout's time and throughput. "Run both layouts" runs the other layout, then
// the selected one, with the same seed and controls, on the engine the page chose: one plan.
import { useEffect } from 'react';
import { formatRate } from '../../../views/format';
import { StageBreakdown } from '../../../views/StageBreakdown';
import { kindOf } from '../../../views/viewHelpers';
import { useLesson } from '../lessonContext';
import { sameSpec } from '../../../spec/sameSpec';
import { PlanProgressLine } from '../../plan/PlanProgressLine';
import { useLivePlan } from '../useLivePlan';
import { LAYOUT_CONTROL, latestRun, layoutPair, seconds, specWith, stationsOf } from './layouts';

/** The paper row the side-by-side ratio is reported under (lessons/03's `paper`). */
export const COLLAPSE_ROW = 'collapse-beats-six';

export function StageBreakdownBlock() {
  const { lesson, values, run, runs, engineFor, reportMeasured } = useLesson();
  const sequence = useLivePlan();
  const pair = layoutPair(lesson, values);
  const specs = pair?.map((l) => specWith(lesson, values, { layout: l.value })) ?? [];
  const finished = specs.map((s) => (s ? latestRun(runs, s) : undefined));
  const [first, second] = finished;
  const ratio =
    first && second && first.engine === 'threads' && second.engine === 'threads'
      ? first.summary.elapsedUs / second.summary.elapsedUs
      : null;
  useEffect(() => {
    if (ratio !== null && Number.isFinite(ratio)) reportMeasured(COLLAPSE_ROW, ratio);
  }, [ratio, reportMeasured]);
  if (!pair || specs.some((s) => s === null))
    return <p className="hint">This lesson has no pair of layouts to compare at these settings.</p>;
  const live = run.view;
  const runningSpec = run.spec();
  // The layout the controls select runs second: the experiment panel above shows the last run
  // beside the models of the selected layout, so its numbers must be that layout's.
  const order = pair[0].value === values[LAYOUT_CONTROL] ? [1, 0] : [0, 1];
  const runBoth = () =>
    sequence.start(
      'Run both layouts',
      order.map((i) => ({ key: pair[i].value, label: pair[i].label, spec: specs[i]! })),
    );
  return (
    <section className="stage-breakdown-block" data-testid="stage-breakdown">
      <div className="buttons">
        <button data-testid="run-both" onClick={runBoth} disabled={sequence.plan.running}>
          Run both layouts (same seed)
        </button>
        <span className="hint">
          {engineFor(specs[0]!).engine === 'threads'
            ? 'on real threads, one after the other'
            : `on the simulation: ${engineFor(specs[0]!).reason}${
                // The twin shares cores only when the spec gives it a number of them.
                specs[0]!.cores === undefined
                  ? `; the twin gives each of its ${specs[0]!.threads} threads a core of its own, as the models do`
                  : ''
              }`}
        </span>
      </div>
      <PlanProgressLine plan={sequence.plan} />
      <div className="side-by-side">
        {pair.map((layout, i) => {
          const spec = specs[i]!;
          const isLive = runningSpec !== null && sameSpec(runningSpec, spec) && live?.summary;
          const done = finished[i];
          const counters = isLive ? live!.counters : done?.counters;
          const summary = isLive ? live!.summary : done?.summary;
          const engine = isLive ? live!.engine : done?.engine;
          return (
            <figure
              key={layout.value}
              className="breakdown-panel"
              data-layout={layout.value}
              data-state={isLive ? 'running' : done ? 'done' : 'idle'}
            >
              <figcaption>
                <strong>{layout.label}</strong>
                {summary && engine && summary.elapsedUs > 0 ? (
                  <span data-kind={kindOf(engine)} data-testid="breakdown-numbers">
                    {' '}
                    — {summary.completed} items out in {seconds(summary.elapsedUs)},{' '}
                    {formatRate(summary.itemsPerSec)} items/s ({kindOf(engine)}
                    {isLive ? ', running' : ''})
                  </span>
                ) : (
                  <span className="hint"> — not run at these settings yet</span>
                )}
              </figcaption>
              {counters && summary && engine && counters.length === spec.stages.length ? (
                <StageBreakdown
                  stations={stationsOf(spec, counters)}
                  runTimeUs={summary.elapsedUs}
                  source={engine}
                />
              ) : null}
            </figure>
          );
        })}
      </div>
      {first && second && (
        <p data-testid="breakdown-comparison">
          At these settings {pair[1].label} took {seconds(second.summary.elapsedUs)} and{' '}
          {pair[0].label} {seconds(first.summary.elapsedUs)}: a ratio of{' '}
          {(first.summary.elapsedUs / second.summary.elapsedUs).toFixed(2)} (
          {first.engine === second.engine ? kindOf(first.engine) : 'one measured, one simulated'}
          ).
        </p>
      )}
    </section>
  );
}
