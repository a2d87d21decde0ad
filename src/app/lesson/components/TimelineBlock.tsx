// ::timeline — each thread's recent past, rebuilt at 10 Hz (see useLessonRun). A barrier run's
// lanes are its threads, named in the packing grid's words: computing, ready while its core runs a
// neighbour, done and waiting at the barrier.
import { memo, useMemo } from 'react';
import { runtimeOf } from '../../../runtimes';
import type { ExperimentSpec } from '../../../spec/experimentSpec';
import { Timeline } from '../../../views/Timeline';
import { useLesson } from '../lessonContext';
import { shownWindowUs } from '../useLessonRun';
import { CHART_WIDTH_PX } from './layout';

/** Skips frames whose lanes did not change. */
const LiveTimeline = memo(Timeline);

/** Under the OS on real threads the page sees one stretch per interval: when the OS gave the
 * thread's core to another thread inside it is not in the events, so "ready" is not offered. */
export const seesReadyTime = (spec: ExperimentSpec, engine: string | null): boolean =>
  !(engine === 'threads' && spec.schedule === 'os');

export function TimelineBlock() {
  const { spec: controlsSpec, run } = useLesson();
  // The lanes are the last run's, which the controls may have left since: name them for it.
  const spec = run.view?.spec ?? controlsSpec;
  const stageNames = useMemo(() => spec?.stages.map((s) => s.name) ?? [], [spec]);
  const engine = run.view?.engine ?? null;
  // The kind's lane rules (src/runtimes): its legend's words, its lanes' labels, its ready time.
  const kind = spec ? runtimeOf(spec).live : null;
  const seesReady = spec ? seesReadyTime(spec, engine) : true;
  const stateNames = useMemo(() => kind?.laneNames(seesReady), [kind, seesReady]);
  const live = run.view?.live;
  const lanes = live?.lanes.length ?? 0;
  const laneLabel = kind?.laneLabel;
  const laneLabels = useMemo(
    () => (laneLabel ? Array.from({ length: lanes }, (_, t) => laneLabel(t)) : undefined),
    [laneLabel, lanes],
  );
  if (!controlsSpec || !spec || !live)
    return <p className="hint">Run the experiment to see each thread's timeline.</p>;
  return (
    <>
      <LiveTimeline
        lanes={live.lanes}
        stageNames={stageNames}
        nowUs={live.lanesNowUs}
        windowUs={shownWindowUs(live.lanesNowUs)}
        source={engine ?? 'simulation'}
        width={CHART_WIDTH_PX}
        stateNames={stateNames}
        laneLabels={laneLabels}
        history={live.history}
      />
      {kind?.slicedEnds && !seesReady && (
        <p className="hint" data-testid="timeline-os-hint">
          Your operating system's time slices are invisible to the page: a thread's computing bar
          includes any time its core ran another thread.
        </p>
      )}
    </>
  );
}
