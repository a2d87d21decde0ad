// ::stream-graph — the phaser run's tasks and streams, live from the run's board (before a run:
// the tasks and streams the spec will start with).
import { useMemo } from 'react';
import { plannedStreams, plannedTasks } from '../../../views/streamGraphLayout';
import { StreamGraphView } from '../../../views/StreamGraphView';
import { useLesson } from '../lessonContext';
import { CHART_WIDTH_PX } from './layout';
import { kindShows } from '../../../runtimes';

export function StreamGraphBlock() {
  const { spec, run } = useLesson();
  const planned = useMemo(
    () =>
      spec && kindShows(spec, 'stream-graph')
        ? { tasks: plannedTasks(spec), streams: plannedStreams(spec) }
        : null,
    [spec],
  );
  if (!spec || !planned)
    return <p className="hint">The stream graph shows a phaser experiment (runtime: phaser).</p>;
  const board = run.view?.board;
  return (
    <div className="stream-graph-block">
      <StreamGraphView
        spec={spec}
        tasks={board?.tasks ?? planned.tasks}
        streams={board?.streams ?? planned.streams}
        stalled={board?.stalled ?? false}
        source={run.view?.engine ?? 'simulation'}
        width={CHART_WIDTH_PX}
      />
    </div>
  );
}
