// The one progress report every multi-run control shows: a bar and its words (run k of n, the time
// left, the run in progress; or how the plan ended), with Stop while it runs.
import type { PlanProgress } from '../../engine/planner/planner';
import { planWords } from './planWords';

export function PlanProgressLine({
  plan,
}: {
  /** The plan's progress (nothing is drawn before the first) and how to stop it. */
  plan: { progress: PlanProgress | null; stop: () => void };
}) {
  const p = plan.progress;
  if (!p) return null;
  const live = p.state === 'running' || p.state === 'queued';
  return (
    <div
      className={`plan-progress ${p.state}`}
      data-testid="plan-progress"
      data-state={p.state}
      data-done={p.done}
      data-total={p.total}
      role={p.state === 'failed' ? 'alert' : 'status'}
    >
      <progress max={Math.max(1, p.total)} value={p.done} aria-label={p.label} />
      <span className="plan-words">{planWords(p)}</span>
      {live && (
        <button type="button" data-testid="plan-stop" onClick={plan.stop}>
          Stop
        </button>
      )}
    </div>
  );
}
