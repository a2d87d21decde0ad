// ::reorder — the two-stage output's buffer pool from the run's telemetry (live/bufferPool.ts):
// which buffers formatters fill, which finished batches wait for their turn, and the writer
// taking batches strictly by number. Slow motion is the lesson's longer real formatting time.
import { inFlight } from '../../../engine/pipeline/pipelineRun';
import { ReorderView } from '../../../views/ReorderView';
import { useLesson } from '../lessonContext';
import { CHART_WIDTH_PX } from './layout';
import { kindShows } from '../../../runtimes';

export function ReorderBlock() {
  const { spec, run } = useLesson();
  if (!spec || !kindShows(spec, 'reorder'))
    return <p className="notice">The reorder view draws a two-stage-output experiment.</p>;
  const pool = run.view?.live.bufferPool;
  const batches = Math.ceil(spec.items / spec.batchItems!);
  const live = inFlight(run.view?.state ?? 'idle') && (pool?.written ?? 0) < batches;
  const buffers = spec.variant === 'serial' ? 1 : spec.buffers!;
  const slots = Array.from(
    { length: Math.max(buffers, pool?.slots.length ?? 0) },
    (_, b) => pool?.slots[b] ?? { state: 'free' as const, batch: null, waiting: false },
  );
  return (
    <ReorderView
      slots={slots}
      nextToWrite={pool?.nextToWrite ?? 0}
      batches={batches}
      written={pool?.written ?? 0}
      finishedOutOfOrder={pool?.finishedOutOfOrder ?? 0}
      // Waiting "now" means while the run goes: a formatter that found no batch left exits
      // without a further event.
      formattersWaiting={live ? (pool?.formattersWaiting ?? 0) : 0}
      bufferWaits={pool?.bufferWaits ?? 0}
      source={run.view?.engine ?? 'simulation'}
      width={CHART_WIDTH_PX}
    />
  );
}
