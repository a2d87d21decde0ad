// ::model-chart — throughput against the swept control: the lesson's model curves (solved once per
// change of the controls), finished runs and sweep points, and the sweep button with a hint that
// says what this sweep will do on this engine, and the sweep's progress and Stop.
import { memo, useMemo, useRef } from 'react';
import { visitorCores } from '../../../engine/isolation';
import { SWEEP_REPEATS, type SweepJob } from '../../../engine/sweep';
import { ModelChart } from '../../../views/ModelChart';
import { PlanProgressLine } from '../../plan/PlanProgressLine';
import { ChartExports } from '../ChartExports';
import { useLesson } from '../lessonContext';
import { useStageSweep } from '../useStageSweep';
import { modelCurves } from '../modelCurves';
import { CHART_WIDTH_PX } from './layout';

const Y_LABEL = 'throughput (items/s)';

/** Redrawn only when its curves or points change, not on every frame of a run. */
const StillModelChart = memo(ModelChart);

/** What the sweep will do on this engine, in words: how many points run on real threads and how
 * many on the twin, and why. */
export function sweepHint(plan: SweepJob[], threadSweep: boolean, engineReason: string): string {
  const measured = plan.filter((j) => j.engine === 'threads').length;
  const simulated = plan.length - measured;
  const repeats = `Each point is the middle of ${SWEEP_REPEATS} runs, its bar spanning the slowest to the fastest.`;
  if (measured === 0)
    return `This sweep simulates all ${plan.length} points on the discrete-event twin (${engineReason}). ${repeats}`;
  const why = threadSweep
    ? ` (up to your ${visitorCores()} cores: the models assume a core per thread)`
    : '';
  const rest = simulated > 0 ? ` and simulates the other ${simulated}` : '';
  return `This sweep measures ${measured} of its ${plan.length} points on real threads${why}, with fewer items each,${rest}; each point says which. ${repeats}`;
}

export function ModelChartBlock() {
  const { lesson, values, spec, engine, sweep } = useLesson();
  const control = sweep.control;
  const block = useRef<HTMLDivElement>(null);
  const curves = useMemo(
    () =>
      control &&
      modelCurves(lesson.experimentSource, lesson.controls, values, lesson.models, control),
    [lesson, values, control],
  );
  // The presenter's `s` runs this sweep while the chart is on the stage.
  useStageSweep(spec && control ? () => sweep.running || sweep.start() : null);
  if (!spec || !control) return null;
  const x = values[control.id];
  return (
    <div className="model-chart-block" ref={block}>
      <StillModelChart
        xLabel={control.label}
        yLabel={Y_LABEL}
        width={CHART_WIDTH_PX}
        curves={curves ?? []}
        points={sweep.points}
        currentX={typeof x === 'number' ? x : undefined}
      />
      <div className="buttons">
        <button onClick={sweep.start} disabled={sweep.running} data-testid="sweep">
          Sweep {control.label.toLowerCase()}
        </button>
        <button onClick={sweep.clear}>Clear points</button>
      </div>
      <PlanProgressLine plan={sweep.progress} />
      {sweep.plan && (
        <p className="hint" data-testid="sweep-hint">
          {sweepHint(sweep.plan, sweep.threadSweep, engine?.reason ?? '')}
        </p>
      )}
      <ChartExports
        chart={block}
        lessonSlug={lesson.slug}
        lessonTitle={lesson.title}
        xLabel={control.label}
        yLabel={Y_LABEL}
        xColumn={control.id}
        points={sweep.points}
        curves={curves ?? []}
      />
    </div>
  );
}
