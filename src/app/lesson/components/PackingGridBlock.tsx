// ::packing-grid — the last interval of the barrier run, cores as columns, threads stacked on
// them (src/views/PackingGrid.tsx): live from the run's telemetry (real threads or the twin,
// labelled), and before the first run a few intervals of the twin at the current settings. A run
// packed onto real threads also measures the imbalance factor (the busiest core's computing time
// over the least busy one's) for the paper row PACKING_ROWS.imbalance.
import { useEffect, useMemo } from 'react';
import { PackingGrid } from '../../../views/PackingGrid';
import { useLesson } from '../lessonContext';
import { imbalanceOf, knownCores, PACKING_ROWS, twinPreview } from '../packing';
import { CHART_WIDTH_PX } from './layout';
import { kindShows } from '../../../runtimes';

export function PackingGridBlock() {
  const { spec, run, lesson, reportMeasured } = useLesson();
  const view = run.view;
  const barrier = spec && kindShows(spec, 'packing-grid') ? spec : null;
  const preview = useMemo(() => barrier && twinPreview(barrier), [barrier]);
  const live = view?.barrier?.last ? view.barrier : null;
  const measuredImbalance =
    view?.state === 'done' && view.engine === 'threads' && barrier?.schedule === 'packed' && live
      ? imbalanceOf(live.coreComputeUs)
      : null;
  const reportsImbalance = lesson.paper.some((r) => r.id === PACKING_ROWS.imbalance && r.measured);
  useEffect(() => {
    if (reportsImbalance && measuredImbalance !== null)
      reportMeasured(PACKING_ROWS.imbalance, measuredImbalance);
  }, [reportsImbalance, measuredImbalance, reportMeasured]);
  if (!barrier || !preview?.last)
    return <p className="hint">The packing grid draws runs of the barrier runtime.</p>;
  const snapshot = live ?? preview;
  const source = live ? (view?.engine ?? 'simulation') : 'simulation';
  const elapsedUs = Math.max(1, snapshot.last!.endUs);
  return (
    <div className="packing-grid-block">
      {!live && (
        <p className="hint" data-testid="packing-grid-preview">
          Before you run: {snapshot.intervals} intervals of the twin at these settings. Press Run to
          watch the real thing.
        </p>
      )}
      <PackingGrid
        interval={snapshot.last!}
        intervalsTotal={live ? barrier.items : Math.min(barrier.items, snapshot.intervals)}
        idleShare={snapshot.waitUs.map((w) => w / elapsedUs)}
        cores={knownCores(barrier, source)}
        threadWorkUs={
          barrier.stages[0].service.kind === 'fixed'
            ? barrier.stages[0].service.us / barrier.threads
            : undefined
        }
        source={source}
        width={CHART_WIDTH_PX}
      />
      {measuredImbalance !== null && (
        <p className="hint" data-testid="measured-imbalance" data-kind="measured">
          Measured on your cores: the busiest core computed {measuredImbalance.toFixed(2)} times as
          long as the least busy one.
        </p>
      )}
    </div>
  );
}
