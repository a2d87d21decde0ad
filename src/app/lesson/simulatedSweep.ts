// The model chart's sweep on the simulation: each x of the swept control is simulated with a few
// seeds (the spread), one simulation per macrotask so the page keeps drawing.
import { createSimulation } from '../../sim';
import type { ExperimentSpec } from '../../spec/experimentSpec';
import type { ChartPoint } from './useLessonRun';

export const SWEEP_REPEATS = 3;

export function simulatePoint(
  spec: ExperimentSpec,
  x: number,
  repeats = SWEEP_REPEATS,
): ChartPoint {
  const ys: number[] = [];
  for (let r = 0; r < repeats; r++) {
    const result = createSimulation({ ...spec, seed: (spec.seed + r * 7919) >>> 0 }).runToEnd();
    ys.push(result.throughputPerUs * 1e6);
  }
  ys.sort((a, b) => a - b);
  return {
    x,
    y: ys[Math.floor(ys.length / 2)],
    min: ys[0],
    max: ys[ys.length - 1],
    source: 'simulation',
  };
}

/** Simulates every (x, spec) pair; calls onPoint as each finishes. Returns a cancel function. */
export function runSweep(
  jobs: Array<{ x: number; spec: ExperimentSpec }>,
  onPoint: (p: ChartPoint) => void,
  onDone: () => void,
): () => void {
  let cancelled = false;
  let i = 0;
  const next = () => {
    if (cancelled) return;
    if (i >= jobs.length) return onDone();
    const job = jobs[i++];
    onPoint(simulatePoint(job.spec, job.x));
    setTimeout(next, 0);
  };
  setTimeout(next, 0);
  return () => {
    cancelled = true;
  };
}
