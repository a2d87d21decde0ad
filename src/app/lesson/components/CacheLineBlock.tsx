// ::cacheline-view — the lesson experiment's BatchQueue as cache lines, moved by the real queue's
// indices: the C++ link reports each write, publish, read and release (batch-* telemetry) and the
// view folds them as they arrive. Slow motion is the stages' real service time (the lesson's
// slider), never replayed data; the twin does not model BatchQueue, so on the simulation the view
// says so instead of drawing.
import { useMemo } from 'react';
import { BatchQueueTracker } from '../../../live/batchQueueState';
import { runtimeOf } from '../../../runtimes';
import { CacheLineView } from '../../../views/CacheLineView';
import { useLesson } from '../lessonContext';
import { CHART_WIDTH_PX } from './layout';

export function CacheLineBlock() {
  const { spec, run, engine } = useLesson();
  const link = spec && runtimeOf(spec).live.batchLink(spec);
  const idle = useMemo(
    () => link && new BatchQueueTracker(link.semiItems, link.itemBytes).snapshot(),
    [link?.semiItems, link?.itemBytes], // eslint-disable-line react-hooks/exhaustive-deps
  );
  if (!spec || !link || !idle) return null;
  const live = run.view?.engine === 'threads' ? run.view.live.batchQueue : null;
  const serviceMs =
    spec.stages[0].service.kind === 'fixed' ? spec.stages[0].service.us / 1000 : null;
  return (
    <div className="cacheline-block">
      {engine?.engine === 'simulation' ? (
        <p className="notice" data-testid="cacheline-needs-threads">
          This view draws a real BatchQueue&apos;s indices, read from its threads; the
          discrete-event twin running this page hands items over one at a time and has no
          semi-buffers to draw. Open the lesson where it runs on real threads to watch them.
        </p>
      ) : (
        <p className="hint">
          {link.semiItems} items of 16 bytes per semi-buffer ({idle.linesPerSemi} cache line
          {idle.linesPerSemi === 1 ? '' : 's'})
          {serviceMs !== null && `; each stage works ${serviceMs} ms per item, so you can watch`}.
          Press Run above.
        </p>
      )}
      <CacheLineView
        state={live ?? idle}
        kind={live ? 'measured' : undefined}
        widthPx={CHART_WIDTH_PX}
      />
    </div>
  );
}
