// A plan's progress in words, as every multi-run control shows it: "run 3 of 14 · about 12 s left ·
// npTh = 6, measured" while it runs, and how it ended (done, stopped and why, failed at which run
// and why) with what it kept.
import type { PlanProgress } from '../../engine/planner/planner';

/** A time left or taken, as a person says it: "less than a second", "12 s", "3 min". */
export function roughTime(ms: number): string {
  const s = ms / 1000;
  if (s < 1) return 'less than a second';
  if (s < 90) return `${Math.round(s)} s`;
  return `${Math.round(s / 60)} min`;
}

const runs = (n: number) => `${n} run${n === 1 ? '' : 's'}`;

export function planWords(p: PlanProgress): string {
  switch (p.state) {
    case 'queued':
      return `${p.label}: waiting for the run in progress to stop`;
    case 'running': {
      const left = p.leftMs === null ? [] : [`about ${roughTime(p.leftMs)} left`];
      const now = p.current === null ? [] : [p.current];
      return [`run ${Math.min(p.done + 1, p.total)} of ${p.total}`, ...left, ...now].join(' · ');
    }
    case 'done':
      return `${p.done === 1 ? 'the run' : `all ${runs(p.done)}`} done in ${roughTime(p.elapsedMs)}`;
    case 'stopped':
      return (
        `stopped after ${p.done} of ${runs(p.total)}${p.stoppedBy ? ` (${p.stoppedBy})` : ''}` +
        (p.done > 0 ? `; the finished ${p.done === 1 ? 'one is' : 'ones are'} kept` : '')
      );
    case 'failed': {
      const f = p.failure!;
      return (
        `run ${f.step + 1} of ${p.total} (${f.label}) failed: ${f.message}` +
        (p.done > 0 ? `; the ${runs(p.done)} finished before it are kept` : '')
      );
    }
  }
}
