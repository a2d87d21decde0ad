// ::packing-compare — thread reduction against thread packing on the visitor's own cores C, on
// real threads: under OS scheduling, C threads (TR) against C + 1, 2C − 1 and 2C (TP) at the
// lesson's first grain, and C against C + 1 at its second (coarse) grain; and C + 1 threads packed
// explicitly onto C core threads. Each row: time per interval, TP/TR measured, the idealised
// bound ⌈T/C⌉·C/T and the twin at the same setting. Reports TP/TR at C + 1 and its fine/coarse
// ratio for the paper rows PACKING_ROWS.tpOverTr and .fineOverCoarse.
import { useMemo, useState } from 'react';
import { canUseThreads, threadsUnavailableReason, visitorCores } from '../../../engine/isolation';
import { simulatePoint, SWEEP_REPEATS, type ChartPoint } from '../../../engine/sweep';
import { applyControls, type ControlValues } from '../../../lessons/controls';
import { threadPacking } from '../../../model/seedModels';
import type { ExperimentSpec, Schedule } from '../../../spec/experimentSpec';
import { PlanProgressLine } from '../../plan/PlanProgressLine';
import { usePlan } from '../../plan/usePlan';
import { useLesson } from '../lessonContext';
import { barrierVariant, grainSpecs, PACKING_ROWS } from '../packing';
import { kindShows } from '../../../runtimes';

interface Measurement {
  key: string;
  schedule: Schedule;
  grain: string;
  grainLabel: string;
  threads: number;
  spec: ExperimentSpec;
  repeats: number;
  /** The thread-reduction measurement it is compared with (null: it is one). */
  reference: string | null;
}

/** Every run the comparison makes, thread reductions first, each spec once. */
export function comparisonPlan(
  grains: Array<{ grain: string; label: string; spec: ExperimentSpec }>,
  cores: number,
): Measurement[] {
  const plan: Measurement[] = [];
  grains.slice(0, 2).forEach((g, i) => {
    const fine = i === 0;
    const repeats = fine ? SWEEP_REPEATS : 1; // a coarse interval lasts up to a second
    const add = (schedule: Schedule, threads: number, reference: string | null) => {
      const key = `${schedule}-${g.grain}-${threads}`;
      if (plan.some((m) => m.key === key)) return;
      const spec = barrierVariant(g.spec, { threads, cores, schedule });
      plan.push({
        key,
        schedule,
        grain: g.grain,
        grainLabel: g.label,
        threads,
        spec,
        repeats,
        reference,
      });
    };
    const tr = `os-${g.grain}-${cores}`;
    add('os', cores, null);
    const tps = fine ? [cores + 1, 2 * cores - 1, 2 * cores] : [cores + 1];
    for (const t of tps) if (t > cores) add('os', t, tr);
    if (fine) add('packed', cores + 1, tr);
  });
  return plan;
}

const ms = (perSec: number) => `${(1000 / perSec).toFixed(1)} ms`;

export function PackingCompareBlock() {
  const { lesson, values, spec, planner, reportMeasured } = useLesson();
  const cores = visitorCores();
  const plan = useMemo(() => {
    if (!spec || !kindShows(spec, 'packing-compare')) return null;
    const specAt = (v: ControlValues) => applyControls(lesson.experimentSource, lesson.controls, v);
    return comparisonPlan(grainSpecs(lesson, values, specAt), cores);
  }, [lesson, values, spec, cores]);
  const [points, setPoints] = useState<Record<string, ChartPoint>>({});
  const measuring = usePlan(planner);
  if (!plan) return <p className="hint">This comparison measures the barrier runtime.</p>;
  if (!canUseThreads())
    return (
      <p className="notice" data-testid="packing-compare-unavailable">
        Measuring on your cores needs real threads: {threadsUnavailableReason()}
      </p>
    );

  const measure = () => {
    setPoints({});
    const got: Record<string, ChartPoint> = {};
    measuring.start({
      label: `Measure TR against TP on your ${cores} cores`,
      steps: plan.map((m) => ({
        kind: 'point' as const,
        label: `${m.threads} threads, ${m.schedule === 'os' ? 'your OS' : 'packed'}, ${m.grainLabel}`,
        x: m.threads,
        spec: m.spec,
        engine: 'threads' as const,
        repeats: m.repeats,
        key: m.key,
      })),
      onResult: (p, _i, { key }) => {
        got[key] = p;
        setPoints({ ...got });
      },
      onEnd: ({ state }) => {
        if (state !== 'done') return;
        const ratio = (m: Measurement | undefined) =>
          m?.reference ? got[m.reference].y / got[m.key].y : null;
        const tpNext = plan.filter((m) => m.schedule === 'os' && m.threads === cores + 1);
        const [fine, coarse] = tpNext.map(ratio);
        if (fine) reportMeasured(PACKING_ROWS.tpOverTr, fine);
        if (fine && coarse) reportMeasured(PACKING_ROWS.fineOverCoarse, fine / coarse);
      },
    });
  };

  return (
    <div className="packing-compare" data-testid="packing-compare">
      <div className="buttons">
        <button onClick={measure} disabled={measuring.running} data-testid="measure-packing">
          Measure TR against TP on your {cores} cores
        </button>
      </div>
      <PlanProgressLine plan={measuring} />
      <table className="paper-table">
        <thead>
          <tr>
            <th>Who places the threads</th>
            <th>Grain</th>
            <th>Threads on {cores} cores</th>
            <th>Time per interval (measured)</th>
            <th>TP / TR (measured)</th>
            <th>Bound ⌈T/C⌉·C/T</th>
            <th>TP / TR (twin)</th>
          </tr>
        </thead>
        <tbody>
          {plan.map((m) => {
            const p = points[m.key];
            const ref = m.reference ? points[m.reference] : undefined;
            const measured = p && ref ? ref.y / p.y : null;
            const twin = m.reference
              ? simulatedRatio(plan.find((x) => x.key === m.reference)!.spec, m.spec)
              : null;
            return (
              <tr
                key={m.key}
                data-testid="packing-compare-row"
                data-schedule={m.schedule}
                data-threads={m.threads}
                data-kind={measured !== null ? 'measured' : undefined}
                data-ratio={measured ?? undefined}
              >
                <td>{m.schedule === 'os' ? 'your OS' : 'explicit packing'}</td>
                <td>{m.grainLabel}</td>
                <td className="num">
                  {m.threads}
                  {m.reference ? '' : ' (TR)'}
                </td>
                <td className="num measured">{p ? ms(p.y) : '—'}</td>
                {m.reference ? (
                  <td className="num measured">
                    {measured !== null ? `${measured.toFixed(2)}×` : '—'}
                  </td>
                ) : (
                  <td className="num">reference</td>
                )}
                <td className="num" data-kind="model">
                  {threadPacking({ threads: m.threads, cores }).slowdownVsReduction.toFixed(2)}×
                </td>
                {twin === null ? (
                  <td className="num">reference</td>
                ) : (
                  <td className="num simulated" data-kind="simulated">
                    {twin.toFixed(2)}×
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="hint">
        Each run does the same total work. TR (thread reduction) is one thread per core; TP (thread
        packing) puts more threads than cores. The explicit-packing row is compared with the same TR
        run ({cores} threads, one per core). Fine rows are the middle of {SWEEP_REPEATS} runs,
        coarse rows one run each.
      </p>
    </div>
  );
}

/** The twin's TP/TR for two specs of the plan (median of the usual repeats), cached per pair. */
const twinRatios = new Map<string, number>();
function simulatedRatio(tr: ExperimentSpec, tp: ExperimentSpec): number {
  const key = JSON.stringify([tr, tp]);
  let r = twinRatios.get(key);
  if (r === undefined) {
    r = simulatePoint(tr, 0).y / simulatePoint(tp, 0).y;
    twinRatios.set(key, r);
  }
  return r;
}
