// ::oversubscription — the paper's Table 1 on the visitor's cores: the same pipeline (the current
// layout, items and queues) with about one thread per core, then with `tpc` threads per core, one
// after the other; time, speed-up over the work one thread would do alone, and efficiency per core
// used (as the paper's Table 1) and per thread. A browser cannot pin threads to fewer cores (the
// paper used taskset), so both runs have all of the visitor's cores and differ in threads. The two
// runs are one plan of live runs.
import { useEffect } from 'react';
import { threadsLimit } from '../../../engine/pipeline/chooseEngine';
import { visitorCores } from '../../../engine/isolation';
import { stageInputs, totalServiceUs } from '../../../model/serviceTime';
import type { ExperimentSpec } from '../../../spec/experimentSpec';
import { parallelStageCount } from '../../../spec/parallelThreads';
import { formatRate } from '../../../views/format';
import { kindOf } from '../../../views/viewHelpers';
import { PlanProgressLine } from '../../plan/PlanProgressLine';
import { useLesson } from '../lessonContext';
import { useLivePlan } from '../useLivePlan';
import { seconds, specWith } from './layouts';

/** The paper row the measured ratio is reported under (lessons/03's `paper`). */
export const OVERSUBSCRIBED_ROW = 'oversubscribed-beats-one-per-core';
const THREADS_PER_CORE = 'tpc';

/** The largest npTh whose pipeline has at most `threads` threads (at least one per parallel
 * stage, even if that is more). */
export function npThFor(spec: ExperimentSpec, threads: number, most: number): number {
  const count = parallelStageCount(spec.stages);
  const serial = spec.stages.length - count;
  return Math.max(count, Math.min(most, threads - serial));
}

/** One item's work alone on one thread: ΣT_ser over the stages, times the items (µs). */
export const sequentialUs = (spec: ExperimentSpec) =>
  totalServiceUs(stageInputs(spec)) * spec.items;

export function OversubscriptionBlock() {
  const { lesson, values, spec, reportMeasured } = useLesson();
  const sequence = useLivePlan();
  const control = lesson.controls.find((c) => c.id === 'npTh');
  const tpc = Number(values[THREADS_PER_CORE]);
  const cores = visitorCores();
  const most = control?.kind === 'range' ? control.max : 64;
  const configs =
    spec && Number.isInteger(tpc)
      ? [
          { key: 'one', npTh: npThFor(spec, cores, most), label: 'about one thread per core' },
          {
            key: 'over',
            npTh: npThFor(spec, Math.min(tpc * cores, threadsLimit(cores)), most),
            label: `about ${tpc} threads per core`,
          },
        ].map((c) => {
          // The smallest pipeline may already have more threads than there are cores.
          if (
            c.key === 'one' &&
            npThFor(spec, cores, most) + spec.stages.length - parallelStageCount(spec.stages) >
              cores
          )
            c.label = 'the fewest threads this layout runs with';
          // The twin (when the page cannot run threads) shares the same cores as threads would.
          const at = specWith(lesson, values, { npTh: c.npTh });
          return { ...c, spec: at && { ...at, cores } };
        })
      : [];
  const one = sequence.results.one;
  const over = sequence.results.over;
  const ratio =
    one && over && one.engine === 'threads' && over.engine === 'threads'
      ? one.summary.elapsedUs / over.summary.elapsedUs
      : null;
  useEffect(() => {
    if (ratio !== null && Number.isFinite(ratio)) reportMeasured(OVERSUBSCRIBED_ROW, ratio);
  }, [ratio, reportMeasured]);
  if (!spec || configs.length !== 2 || configs.some((c) => c.spec === null))
    return <p className="hint">Set the controls to a valid experiment to measure this.</p>;
  const same = configs[0].npTh === configs[1].npTh;
  return (
    <section className="oversubscription" data-testid="oversubscription">
      <div className="buttons">
        <button
          data-testid="measure-oversubscription"
          disabled={same || sequence.plan.running}
          onClick={() =>
            sequence.start(
              'Measure one thread per core, then oversubscribed',
              configs.map((c) => ({ key: c.key, label: c.label, spec: c.spec! })),
            )
          }
        >
          Measure {configs[0].spec!.threads} and {configs[1].spec!.threads} threads on your {cores}{' '}
          cores
        </button>
      </div>
      <PlanProgressLine plan={sequence.plan} />
      {same && (
        <p className="notice" data-testid="oversubscription-no-room">
          On your {cores} cores this layout cannot show it: its smallest pipeline already has{' '}
          {configs[0].spec!.threads} threads, and the page runs at most {threadsLimit(cores)}{' '}
          threads on {cores} cores. Try the collapsed layout, which needs fewer threads.
        </p>
      )}
      <table className="oversubscription-table">
        <thead>
          <tr>
            <th>Configuration</th>
            <th>Cores (PE) / threads</th>
            <th>Time</th>
            <th>Throughput</th>
            <th>Speed-up</th>
            <th>Efficiency per core</th>
            <th>Efficiency per thread</th>
          </tr>
        </thead>
        <tbody>
          {configs.map((c) => {
            const r = sequence.results[c.key];
            const speedup = r ? sequentialUs(c.spec!) / r.summary.elapsedUs : null;
            const kind = r ? kindOf(r.engine) : undefined;
            return (
              <tr key={c.key} data-config={c.key} data-kind={kind}>
                <td>
                  {c.label} (npTh = {c.npTh})
                </td>
                <td className="num">
                  {cores} / {c.spec!.threads}
                </td>
                <td className="num">{r ? seconds(r.summary.elapsedUs) : '—'}</td>
                <td className="num">{r ? `${formatRate(r.summary.itemsPerSec)} items/s` : '—'}</td>
                <td className="num" data-testid="speedup">
                  {speedup === null ? '—' : speedup.toFixed(2)}
                </td>
                <td className="num">
                  {speedup === null
                    ? '—'
                    : `${((100 * speedup) / Math.min(cores, c.spec!.threads)).toFixed(1)}%`}
                </td>
                <td className="num">
                  {speedup === null ? '—' : `${((100 * speedup) / c.spec!.threads).toFixed(1)}%`}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="hint">
        Speed-up is the work one thread would do alone ({seconds(sequentialUs(configs[0].spec!))}:
        every item's service times added up) over the measured time. Efficiency per core divides it
        by the cores the threads had, min(threads, {cores}) — the paper's Table 1 — and per thread
        by the threads.
        {one && over
          ? ` Here ${tpc} threads per core took ${seconds(over.summary.elapsedUs)} against ${seconds(one.summary.elapsedUs)}: a ratio of ${(one.summary.elapsedUs / over.summary.elapsedUs).toFixed(2)}.`
          : ''}
      </p>
    </section>
  );
}
