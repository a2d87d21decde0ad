// ::timeline — each thread's recent past, rebuilt at 10 Hz (see useLessonRun).
import { memo, useMemo } from 'react';
import { Timeline } from '../../../views/Timeline';
import { useLesson } from '../lessonContext';
import { WINDOW_US } from '../useLessonRun';
import { CHART_WIDTH_PX } from './layout';

/** Skips frames whose lanes did not change. */
const LiveTimeline = memo(Timeline);

export function TimelineBlock() {
  const { spec, run } = useLesson();
  const stageNames = useMemo(() => spec?.stages.map((s) => s.name) ?? [], [spec]);
  const live = run.view?.live;
  if (!spec || !live)
    return <p className="hint">Run the experiment to see each thread's timeline.</p>;
  return (
    <LiveTimeline
      lanes={live.lanes}
      stageNames={stageNames}
      nowUs={live.lanesNowUs}
      windowUs={WINDOW_US}
      source={run.view?.engine ?? 'simulation'}
      width={CHART_WIDTH_PX}
    />
  );
}
