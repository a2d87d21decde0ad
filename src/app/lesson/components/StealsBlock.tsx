// ::steals — each thread's deque and the steals between threads, from the run's live state.
import { STEAL_WINDOW_US } from '../../../live/liveState';
import { StealView } from '../../../views/StealView';
import { useLesson } from '../lessonContext';

export function StealsBlock() {
  const { run } = useLesson();
  const live = run.view?.live;
  if (!live) return <p className="hint">Run the experiment to see the steals.</p>;
  return (
    <StealView
      dequeLengths={live.dequeLengths}
      steals={live.steals.map((s) => ({
        thief: s.thief,
        victim: s.victim,
        ageMs: (live.nowUs - s.timeUs) / 1000,
        count: s.count,
      }))}
      fadeMs={STEAL_WINDOW_US / 1000}
      stealCount={live.stealCount}
      source={run.view?.engine ?? 'simulation'}
    />
  );
}
