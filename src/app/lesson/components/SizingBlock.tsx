// ::sizing — "Size it for me" (seed 000 §3.4): a short run of the thread-per-stage layout with one
// thread per parallel stage (few threads busy at once, so the service times are not stretched by
// sharing cores) measures each stage's service time; the sizing model then gives N_optimal and
// c_optimal for the layout on screen, shown as the equations with those numbers in them; the
// controls move there and the sized configuration runs, its throughput shown beside the
// prediction. Both runs are one plan: the sized run is added once the measuring run is in.
import { useState } from 'react';
import { visitorCores } from '../../../engine/isolation';
import { totalServiceUs, stageInputs, visitRatios } from '../../../model/serviceTime';
import { outputsPerItem } from '../../../spec/experimentSpec';
import { stageGroups } from '../../../spec/stageGroups';
import { parallelStageCount } from '../../../spec/parallelThreads';
import { formatRate, roundKeepingSum } from '../../../views/format';
import { kindOf } from '../../../views/viewHelpers';
import { PlanProgressLine } from '../../plan/PlanProgressLine';
import { useLesson } from '../lessonContext';
import { useLivePlan, type KeyedResults, type KeyedRun } from '../useLivePlan';
import { Formula } from './Formula';
import { layoutPair, specWith } from './layouts';
import { measuredTimes, planSizing, twinOfSized, type SizingPlan } from './sizingFormulas';

/** The measuring run lasts about this long at its slowest stage. */
const MEASURE_US = 400_000;
const MEASURE_ITEMS = [10, 200] as const;

export function SizingBlock() {
  const { lesson, values, spec, changeMany, engineFor } = useLesson();
  const sequence = useLivePlan();
  const [plan, setPlan] = useState<SizingPlan | null>(null);
  const pair = layoutPair(lesson, values);
  const limitOf = (id: string) => {
    const c = lesson.controls.find((x) => x.id === id);
    return c?.kind === 'range' ? c.max : Infinity;
  };
  // c_optimal is solved at the lesson's own queue size (the paper's N = 20), not at the N the last
  // sizing set, so pressing the button again gives the same answer.
  const queueControl = lesson.controls.find((x) => x.id === 'queue');
  const copyAtN =
    queueControl?.kind === 'range' && typeof queueControl.defaultValue === 'number'
      ? queueControl.defaultValue
      : undefined;

  /** Once measured: size, move the controls there, and run the sized configuration. */
  const sizeAndRun = (measured: KeyedResults): KeyedRun[] => {
    if (!spec) return [];
    const times = measuredTimes(measured.measure.counters);
    const cores = visitorCores();
    const next = planSizing(
      spec,
      times,
      cores,
      { maxNpTh: limitOf('npTh'), maxQueue: limitOf('queue') },
      spec.queue.capacity === null ? undefined : copyAtN,
    );
    const changes = {
      ...(next.npTh !== null ? { npTh: next.npTh } : {}),
      ...(next.queue !== null ? { queue: next.queue } : {}),
    };
    changeMany(changes);
    let sized = specWith(lesson, values, changes);
    const measuring = measured.measure;
    if (measuring.engine === 'threads' && measuring.spec.threads > cores)
      next.notes.push(
        `the measuring run had ${measuring.spec.threads} threads on your ${cores} cores, so its times include waiting for a core: the cores' cap computed from them is on the low side, and a run on your threads can beat it`,
      );
    const sizedEngine = sized && engineFor(sized);
    if (sized && sizedEngine?.engine === 'simulation') {
      next.notes.push(
        `The sized pipeline runs on the twin: ${sizedEngine.reason}. It runs with the service times measured above, its ${sized.threads} threads sharing your ${cores} cores, as the prediction assumes`,
      );
      sized = twinOfSized(sized, times, cores);
    }
    setPlan(next);
    return sized ? [{ key: 'sized', label: 'the sized pipeline', spec: sized }] : [];
  };

  const measure = () => {
    if (!spec || !pair) return;
    const base = specWith(lesson, values, {
      layout: pair[0].value,
      npTh: parallelStageCount(spec.stages),
    });
    if (!base) return;
    const slowest = Math.max(...stageInputs(base).map((s) => s.serviceTimeUs / s.servers));
    const items = Math.round(
      Math.min(MEASURE_ITEMS[1], Math.max(MEASURE_ITEMS[0], MEASURE_US / slowest)),
    );
    setPlan(null);
    sequence.start(
      'Size it for me',
      [{ key: 'measure', label: 'measuring the service times', spec: { ...base, items } }],
      (key, results) => (key === 'measure' ? sizeAndRun(results) : undefined),
    );
  };

  if (!spec || !pair) return null;
  const running = sequence.plan.running;
  const phase = running
    ? sequence.results.measure
      ? 'running'
      : 'measuring'
    : plan
      ? 'done'
      : 'idle';
  const measured = sequence.results.measure;
  // Emitting or bypassing stages (dedup): a stage's time per item served is not its demand per
  // item into the pipeline, and items out per item in is not 1; the page says which is which.
  const weighted = visitRatios(spec).some((v) => v.served !== 1);
  const perItemOut = outputsPerItem(spec);
  const stationNames = stageGroups(spec).map((g) => g.map((k) => spec.stages[k].name).join(' + '));
  const rate = (perSec: number) =>
    weighted
      ? `${formatRate(perSec)} items out/s (${formatRate(perSec / perItemOut)} items in/s)`
      : `${formatRate(perSec)} items/s`;
  const sized = sequence.results.sized;
  const times = measured ? measuredTimes(measured.counters) : null;
  // The model's stations at the measured times: what the equations use, and their sum.
  const stations = times ? stageInputs(spec, times) : [];
  // Printed as whole µs that add up to the printed ΣT.
  const sumT = times ? Math.round(totalServiceUs(stations)) : null;
  const shownTimes = times ? roundKeepingSum(times.map((t) => t ?? 0)) : [];
  const shownStations = roundKeepingSum(stations.map((st) => st.serviceTimeUs));
  return (
    <section className="sizing" data-testid="size-it" data-phase={phase}>
      <div className="buttons">
        <button data-testid="size-it-button" onClick={measure} disabled={running}>
          Size it for me
        </button>
      </div>
      <PlanProgressLine plan={sequence.plan} />
      {times && measured && (
        <p data-testid="measured-times" data-kind={kindOf(measured.engine)}>
          Service time per item, {kindOf(measured.engine)} on a short run of {measured.spec.items}{' '}
          items (one thread per parallel stage):{' '}
          {measured.spec.stages
            .map((s, i) => `${s.name} ${times[i] === undefined ? '—' : `${shownTimes[i]} µs`}`)
            .join(', ')}
          {weighted ? (
            <>
              . Per item into the pipeline a stage counts once per item it serves (a stage that
              emits several items, or that some items bypass, serves more or fewer than one):{' '}
              {stations.map((_, k) => `${stationNames[k]} ${shownStations[k]} µs`).join(', ')} (ΣT ={' '}
              {sumT} µs per item in), the times the equations use; their rates are items in per
              second.
            </>
          ) : (
            <> (ΣT = {sumT} µs per item in).</>
          )}
        </p>
      )}
      {plan && (
        <>
          <ol className="sizing-formulas">
            {plan.formulas.map((f) => (
              <li key={f.id} data-formula={f.id}>
                {f.label}: <Formula tex={f.tex} />
              </li>
            ))}
          </ol>
          {plan.notes.map((n) => (
            <p key={n} className="notice" data-testid="sizing-note">
              {n.charAt(0).toUpperCase() + n.slice(1)}.
            </p>
          ))}
          <dl className="run-numbers" data-testid="sizing-result">
            <dt>Set</dt>
            <dd>
              npTh = {plan.npTh ?? `${values.npTh} (unchanged)`}, queue size N ={' '}
              {plan.queue ?? `${values.queue} (unchanged)`}
            </dd>
            <dt>Predicted (model)</dt>
            <dd
              data-kind="model"
              data-testid="sizing-predicted"
              data-value={plan.predictedPerSec ?? ''}
            >
              {plan.predictedPerSec === null ? '—' : rate(plan.predictedPerSec)}
            </dd>
            <dt>{sized ? (sized.engine === 'threads' ? 'Measured' : 'Simulated') : 'Measured'}</dt>
            <dd
              data-kind={sized ? kindOf(sized.engine) : undefined}
              data-testid="sizing-measured"
              data-value={sized?.summary.itemsPerSec ?? ''}
            >
              {sized
                ? rate(sized.summary.itemsPerSec)
                : running
                  ? 'running…'
                  : '— (the run was stopped)'}
            </dd>
          </dl>
        </>
      )}
    </section>
  );
}
