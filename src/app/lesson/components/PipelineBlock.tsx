// ::pipeline — the stages as boxes with their queues, drawn from the run's live state.
import { useMemo } from 'react';
import { emptyStageCounters } from '../../../telemetry';
import { runtimeOf } from '../../../runtimes';
import { PipelineView } from '../../../views/PipelineView';
import { useLesson } from '../lessonContext';
import { CHART_WIDTH_PX } from './layout';

export function PipelineBlock() {
  const { spec, run } = useLesson();
  const view = run.view;
  // The queues' cells are drawn with the other views: refreshed when the live state is, which
  // under reduced motion is once a second (useLessonRun), while the counts go on every frame.
  const live = view?.live;
  const occupancy = useMemo(
    () => view?.counters.map((c) => c.queueOccupancy),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- on purpose: only a new live state redraws
    [live],
  );
  if (!spec) return null;
  const kind = runtimeOf(spec);
  // A replay shows the recorded run as it was at the replay's clock: running until its end.
  const replayAt = view?.replay?.position();
  return (
    <PipelineView
      runtime={spec.runtime}
      workerPool={kind.views.workerPool}
      stages={spec.stages}
      counters={view?.counters.length ? view.counters : spec.stages.map(emptyStageCounters)}
      busyByStage={view?.live.busyByStage ?? spec.stages.map(() => 0)}
      queueCapacity={kind.views.linkCapacity(spec)}
      queueOccupancy={view?.counters.length ? occupancy : undefined}
      workerStage={view?.live.workerStage}
      runState={
        replayAt
          ? replayAt.atEnd
            ? 'ended'
            : 'running'
          : view?.state === 'running' || view?.state === 'paused'
            ? view.state
            : // Stopping: the threads still finish their items.
              view?.state === 'stopping'
              ? 'running'
              : 'ended'
      }
      source={view?.engine ?? 'simulation'}
      width={CHART_WIDTH_PX}
    />
  );
}
