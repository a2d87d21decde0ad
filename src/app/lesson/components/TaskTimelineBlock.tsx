// ::task-timeline — the timeline of the other lessons, one lane per task: busy in the colour of the
// thread that ran it, parked while it waits for input or at the bound (the first MAX_TASK_LANES
// tasks; the sieve has hundreds).
import { memo, useMemo } from 'react';
import { MAX_TASK_LANES } from '../../../live/taskLanes';
import { taskLabel } from '../../../views/streamGraphLayout';
import { threadColor } from '../../../views/threadColors';
import { Timeline } from '../../../views/Timeline';
import { useLesson } from '../lessonContext';
import { shownWindowUs } from '../useLessonRun';
import { CHART_WIDTH_PX } from './layout';
import { kindShows } from '../../../runtimes';

const LiveTimeline = memo(Timeline);
const STATE_NAMES = {
  idle: 'parked: waiting for input',
  blocked: 'parked: at the bound',
  stealing: null,
};

export function TaskTimelineBlock() {
  const { spec, run } = useLesson();
  const threadNames = useMemo(
    () => Array.from({ length: spec?.threads ?? 0 }, (_, t) => `thread ${t}`),
    [spec],
  );
  const view = run.view;
  const tasks = view?.board?.tasks ?? [];
  // Labels change when a task appears or a sieve task finds its prime: this key says when.
  const labelKey = tasks.map((t) => `${t.stage}:${t.label}`).join();
  const laneLabels = useMemo(
    () => tasks.slice(0, MAX_TASK_LANES).map((t) => (spec ? taskLabel(spec, t) : `task ${t.id}`)),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [spec, labelKey],
  );
  if (!spec || !kindShows(spec, 'task-timeline') || !view?.taskLive)
    return <p className="hint">Run the experiment to see each task's timeline.</p>;
  const lanes = view.taskLive.lanes.slice(0, Math.min(MAX_TASK_LANES, tasks.length));
  return (
    <div className="task-timeline" data-testid="task-timeline">
      <LiveTimeline
        lanes={lanes}
        stageNames={threadNames}
        laneLabels={laneLabels}
        stateNames={STATE_NAMES}
        busyColor={threadColor}
        nowUs={view.taskLive.lanesNowUs}
        windowUs={shownWindowUs(view.taskLive.lanesNowUs)}
        source={view.engine ?? 'simulation'}
        width={CHART_WIDTH_PX}
      />
      {tasks.length > MAX_TASK_LANES && (
        <p className="hint">
          The first {MAX_TASK_LANES} of {tasks.length} tasks.
        </p>
      )}
    </div>
  );
}
