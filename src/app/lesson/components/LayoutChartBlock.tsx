// ::layout-chart — the paper's Fig. 6: time for the run (Eq. 2, items out / λe) against npTh for
// both layouts. With bounded queues the closed model (Case 1 with T_arr = max T_ser/c, solid; the
// paper's literal max T_ser, dashed) and, where its chain is small enough to solve, the exact
// bounded-queue chain; with unbounded queues the open model (Case 2). Finished runs at these
// settings and sweep points are drawn at their npTh, each layout its own shape, measured or
// simulated as they were. The sweep measures or simulates both layouts over npTh: one plan.
import { memo, useEffect, useMemo, useState } from 'react';
import { visitorCores } from '../../../engine/isolation';
import { pointSteps } from '../../../engine/planner/steps';
import { planSweep, type ChartPoint } from '../../../engine/sweep';
import { OVERLAY_LABELS, type ModelOverlay } from '../../../model';
import { modelItemsPerSec } from '../../../runtimes';
import { itemsOut, type ExperimentSpec } from '../../../spec/experimentSpec';
import { parallelStageCount, parallelThreadsOf } from '../../../spec/parallelThreads';
import { counted } from '../../../spec/words';
import { ModelChart } from '../../../views/ModelChart';
import { PlanProgressLine } from '../../plan/PlanProgressLine';
import { usePlan } from '../../plan/usePlan';
import { useLesson } from '../lessonContext';
import { useStageSweep } from '../useStageSweep';
import { CHART_WIDTH_PX } from './layout';
import { sweepHint } from './ModelChartBlock';
import type { ChooseEngineResult } from '../../../engine/pipeline/chooseEngine';
import type { SweepJob } from '../../../engine/sweep';
import { sameSpec } from '../../../spec/sameSpec';
import { layoutPair, specWith, type Layout } from './layouts';

const StillModelChart = memo(ModelChart);
const NP_TH = 'npTh';
/** Each layout's curves in one colour (the house orange, then a dark brown); the reading is the
 * stroke: solid T_arr = max T_ser/c, dashed the literal max T_ser, dotted the exact chain. */
const LAYOUT_COLOURS = ['var(--model)', '#7a3b06'];
const CHART_HEIGHT_PX = 440;
/** Each layout's runs are marked A or B beside the point (shape says measured or simulated). */
const SERIES_MARKS = ['A', 'B'];

/** Curves drawn with bounded queues (solid first), and with unbounded ones. */
const CLOSED: ModelOverlay[] = ['case1-per-server', 'case1'];
const OPEN: ModelOverlay[] = ['case2'];

interface SeriesPoint extends ChartPoint {
  series: number;
}

export function LayoutChartBlock() {
  const { lesson, values, runs, run, engineFor, planner } = useLesson();
  const pair = useMemo(() => layoutPair(lesson, values), [lesson, values]);
  const control = lesson.controls.find((c) => c.id === NP_TH);
  const [sweepPoints, setSweepPoints] = useState<SeriesPoint[]>([]);
  const sweeping = usePlan(planner);

  // npTh values: multiples of the thread-per-stage layout's parallel stages (each gets as many),
  // and the npTh set now, so the curves have a value where the prose and the panel are (dedup's
  // 3 parallel stages start the multiples at 6; its claim and default are at 4).
  const xs = useMemo(() => {
    if (!pair || control?.kind !== 'range') return [];
    const spec = specWith(lesson, values, { layout: pair[0].value });
    const step = spec ? parallelStageCount(spec.stages) : 1;
    const out: number[] = [];
    for (let x = Math.ceil(control.min / step) * step; x <= control.max; x += step) out.push(x);
    const now = values[NP_TH];
    if (typeof now === 'number' && !out.includes(now)) out.push(now);
    return out.sort((a, b) => a - b);
  }, [lesson, values, pair, control]);
  const specAt = (layout: Layout, x: number) =>
    specWith(lesson, values, { layout: layout.value, [NP_TH]: x });
  const current = pair && specWith(lesson, values, {});
  const nit = current ? itemsOut(current) : 0;
  const bounded = current?.queue.capacity !== null;

  const curves = useMemo(() => {
    if (!pair) return [];
    return pair.flatMap((layout, k) =>
      (bounded ? CLOSED : OPEN).map((overlay, j) => ({
        id: `${layout.value}-${overlay}`,
        label: `${layout.label}: ${OVERLAY_LABELS[overlay]}`,
        dashed: j > 0,
        colour: LAYOUT_COLOURS[k],
        points: xs.flatMap((x): Array<[number, number]> => {
          const spec = specWith(lesson, values, { layout: layout.value, [NP_TH]: x });
          const y = spec && modelItemsPerSec(overlay, spec);
          return y ? [[x, itemsOut(spec) / y]] : [];
        }),
      })),
    );
  }, [lesson, values, pair, xs, bounded]);
  const exact = useExactCurves(pair, xs, bounded, run.view?.state === 'running', specAt);

  // Finished runs of either layout at these settings, whatever their npTh: Eq. 2 at nit.
  const runPoints = useMemo(() => {
    if (!pair) return [];
    return runs.flatMap((r): SeriesPoint[] => {
      const x = parallelThreadsOf(r.spec.stages);
      const series = pair.findIndex((l) => {
        const at = specWith(lesson, values, { layout: l.value, [NP_TH]: x });
        return at !== null && sameSpec({ ...r.spec, seed: 0 }, { ...at, seed: 0 });
      });
      const rate = r.summary.itemsPerSec;
      return series < 0 || !(rate > 0) ? [] : [{ x, y: nit / rate, source: r.engine, series }];
    });
  }, [runs, pair, lesson, values, nit]);

  const plans = useMemo(
    () =>
      pair?.map((layout) =>
        planSweep(
          xs,
          (x) => specWith(lesson, values, { layout: layout.value, [NP_TH]: x })!,
          (spec: ExperimentSpec) => engineFor(spec).engine,
          visitorCores(),
        ),
      ) ?? [],
    [pair, xs, lesson, values, engineFor],
  );
  const sweep = () => {
    if (!pair) return;
    setSweepPoints([]);
    sweeping.start({
      label: 'Sweep npTh for both layouts',
      steps: plans.flatMap((plan, series) =>
        pointSteps(plan, `${pair[series].label}: npTh`).map((step) => ({ ...step, series })),
      ),
      // Eq. 2 at nit: the sweep's runs are shorter; their rate is what carries over.
      onResult: (p, _i, { series }) =>
        setSweepPoints((ps) => [
          ...ps,
          { ...p, y: nit / p.y, min: nit / (p.max ?? p.y), max: nit / (p.min ?? p.y), series },
        ]),
    });
  };
  // The presenter's `s` runs this sweep while the chart is on the stage.
  // Offered only when the chart is drawn: a sweep nobody can see is what `s` must not start.
  const drawn = !!pair && !!current && control?.kind === 'range';
  useStageSweep(drawn ? () => sweeping.running || sweep() : null);
  if (!pair || !current || control?.kind !== 'range') return null;
  const x = values[NP_TH];
  return (
    <div className="model-chart-block layout-chart" data-testid="layout-chart">
      <StillModelChart
        xLabel="parallel threads npTh"
        yLabel={`time for ${nit} items out (s)`}
        width={CHART_WIDTH_PX}
        height={CHART_HEIGHT_PX}
        logY
        curves={[...curves, ...exact]}
        points={[...runPoints, ...sweepPoints]}
        series={pair.map((l, k) => ({ mark: SERIES_MARKS[k], label: l.label }))}
        currentX={typeof x === 'number' ? x : undefined}
      />
      <div className="buttons">
        <button data-testid="sweep" onClick={sweep} disabled={sweeping.running}>
          Sweep npTh for both layouts
        </button>
        <button onClick={() => setSweepPoints([])}>Clear sweep points</button>
      </div>
      <PlanProgressLine plan={sweeping} />
      <p className="hint" data-testid="layout-chart-hint">
        {current.queue.capacity !== null
          ? `Queues hold ${counted(current.queue.capacity, 'item')}: the closed model (Case 1) and, where its chain has at most a few thousand states, the exact bounded-queue chain.`
          : 'Queues are unbounded: the open model (Case 2).'}{' '}
        {layoutSweepHint(plans.flat(), engineFor(current))} Each point is Eq. 2 for {nit} items out
        at the rate its run held; the time axis is logarithmic.
      </p>
    </div>
  );
}

/** The exact chain's time per x for each layout, solved one x at a time between frames (a
 * chain of a thousand states takes a few hundred ms), never while a run is drawing. */
function useExactCurves(
  pair: [Layout, Layout] | null,
  xs: number[],
  bounded: boolean,
  busy: boolean,
  specAt: (layout: Layout, x: number) => ExperimentSpec | null,
) {
  type Curve = {
    id: string;
    label: string;
    dotted: boolean;
    colour: string;
    points: Array<[number, number]>;
  };
  const [solved, setSolved] = useState<{ key: string; curves: Curve[] }>({ key: '', curves: [] });
  const key = pair && bounded ? JSON.stringify([pair, xs, specAt(pair[0], xs[0] ?? 4)]) : '';
  useEffect(() => {
    if (!pair || !bounded || busy) return;
    let cancelled = false;
    const jobs = pair.flatMap((layout, k) => xs.map((x) => ({ layout, k, x })));
    const found: Array<Array<[number, number]>> = pair.map(() => []);
    const step = (i: number) => {
      if (cancelled || i >= jobs.length) return;
      const { layout, k, x } = jobs[i];
      const spec = specAt(layout, x);
      const y = spec && modelItemsPerSec('exact', spec);
      if (spec && y) {
        found[k] = [...found[k], [x, itemsOut(spec) / y]];
        const curves = pair
          .map((l, j) => ({
            id: `${l.value}-exact`,
            label: `${l.label}: ${OVERLAY_LABELS.exact}`,
            dotted: true,
            colour: LAYOUT_COLOURS[j],
            points: found[j],
          }))
          .filter((c) => c.points.length > 0);
        setSolved({ key, curves });
      }
      setTimeout(() => step(i + 1), 0);
    };
    const start = setTimeout(() => step(0), 50);
    return () => {
      cancelled = true;
      clearTimeout(start);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` stands for pair, xs and specs
  }, [key, busy]);
  return solved.key === key ? solved.curves : [];
}

/** What the sweep will do: the usual hint, except when the page runs threads but every x has
 * more parallel threads than cores (planSweep then simulates them all), which it says. */
function layoutSweepHint(plan: SweepJob[], engine: ChooseEngineResult): string {
  if (engine.engine === 'threads' && plan.every((j) => j.engine === 'simulation'))
    return `This sweep simulates all ${plan.length} points: each has more parallel threads than your ${visitorCores()} cores, and the models assume a core per thread (Run measures the current setting on your threads).`;
  return sweepHint(plan, true, engine.reason);
}
