// ::comm-model — seed 001 §II: a linear pipeline of n stages splitting T_seq of work per item lets
// an item out every T_seq/n + T_comm, so its speed-up S(n) = T_seq / (T_seq/n + T_comm) can never
// pass T_seq / T_comm. The curves use the visitor's own numbers: T_comm of each queue from its comm
// run (the time per item when the stages do nothing else), T_seq from a single thread doing the
// work alone. The points are speed-ups measured on the visitor's threads for n up to their cores,
// and the twin's beyond (its stages cost T_seq/n + T_comm: what more cores would give).
import { useMemo } from 'react';
import { visitorCores } from '../../../engine/isolation';
import { measured, type RaceRun } from '../../../live/raceSummary';
import { parseExperimentSpec } from '../../../spec/experimentSpec';
import { spreadOf } from '../../../model/spread';
import { simulateRepeats } from '../../../runtimes/repeats';
import { SpeedupChart, type SpeedupSeries } from '../../../views/SpeedupChart';
import { ControlsPanel } from '../ControlsPanel';
import { useLesson } from '../lessonContext';
import { commConfig, speedupConfigs, speedupPlan, SPEEDUP_QUEUES } from '../../queues/racePlans';
import { useRaceSession } from '../useRaceSession';
import { PlanProgressLine } from '../../plan/PlanProgressLine';
import { QUEUE_LABELS } from './QueueRaceBlock';
import { CHART_WIDTH_PX } from './layout';

const MAX_STAGES = 8;
const COLOURS: Record<string, string> = {
  batch: '#2364c9',
  fastforward: '#1a8a5a',
  'vyukov-mpmc': '#d9771e',
  mutex: '#8a3ffc',
};

/** Twin results by (n, T_seq, T_comm): a race's results arrive every quarter second. */
const twinCache = new Map<string, number>();

/** The twin's speed-up at n stages, each T_seq/n + T_comm µs, a core each. */
function twinSpeedup(n: number, tSeqUs: number, tCommUs: number): number {
  const key = `${n}|${tSeqUs}|${tCommUs}`;
  const cached = twinCache.get(key);
  if (cached !== undefined) return cached;
  if (twinCache.size > 500) twinCache.clear();
  const spec = parseExperimentSpec({
    runtime: 'static',
    stages: Array.from({ length: n }, (_, i) => ({
      name: `stage ${i}`,
      mode: 'serial-in-order',
      service: { kind: 'fixed', us: tSeqUs / n + tCommUs },
    })),
    queue: { kind: 'batch', capacity: 1024 },
    items: 2000,
    seed: 1,
    cores: n,
  });
  const perUs = spreadOf(simulateRepeats(spec).map((r) => r.throughputPerUs)).median;
  twinCache.set(key, perUs * tSeqUs);
  return perUs * tSeqUs;
}

function series(results: RaceRun[], tSeqNominalUs: number, cores: number) {
  const base = measured(results, speedupConfigs('batch', 1, tSeqNominalUs));
  const tSeqUs = base ? 1e6 / base.rate.median : tSeqNominalUs;
  return {
    tSeqUs,
    measuredTSeq: base !== null,
    series: SPEEDUP_QUEUES.map((q): SpeedupSeries => {
      const comm = measured(results, commConfig(q));
      const tCommUs = comm ? 1e6 / comm.rate.median : null;
      const points: SpeedupSeries['points'] = [];
      if (base) points.push({ n: 1, speedup: 1, kind: 'measured' });
      for (let n = 2; n <= Math.min(cores, MAX_STAGES); n++) {
        const m = measured(results, speedupConfigs(q, n, tSeqNominalUs));
        if (m && base) {
          const b = base.rate.median;
          points.push({
            n,
            speedup: m.rate.median / b,
            min: m.rate.min / b,
            max: m.rate.max / b,
            kind: 'measured',
          });
        }
      }
      if (tCommUs !== null)
        for (let n = Math.min(cores, MAX_STAGES) + 1; n <= MAX_STAGES; n++)
          points.push({ n, speedup: twinSpeedup(n, tSeqUs, tCommUs), kind: 'simulated' });
      return { queue: q, label: QUEUE_LABELS[q], colour: COLOURS[q], tCommUs, points };
    }),
  };
}

export function CommModelBlock() {
  const { lesson, values, change } = useLesson();
  const { state, plan, start } = useRaceSession('speedup');
  const cores = visitorCores();
  const tSeqNominalUs = Number(values.tseq) || 1;
  const controls = lesson.controls.filter((c) => c.id === 'tseq');
  const model = useMemo(
    () => series(state.results, tSeqNominalUs, cores),
    [state.results, tSeqNominalUs, cores],
  );
  return (
    <div className="comm-model" data-testid="comm-model">
      <ControlsPanel controls={controls} values={values} onChange={change} />
      {state.unavailable ? (
        <p className="notice">Measuring speed-ups needs real threads: {state.unavailable}</p>
      ) : (
        <>
          <div className="buttons">
            <button
              data-testid="speedup-run"
              onClick={() =>
                start(
                  'Measure T_comm and speed-ups',
                  speedupPlan(Math.min(cores, MAX_STAGES), tSeqNominalUs),
                )
              }
            >
              Measure T_comm and speed-ups up to {Math.min(cores, MAX_STAGES)} stages
            </button>
          </div>
          <PlanProgressLine plan={plan} />
        </>
      )}
      <SpeedupChart
        tSeqUs={model.tSeqUs}
        maxStages={MAX_STAGES}
        series={model.series}
        widthPx={CHART_WIDTH_PX}
      />
      <table className="comm-table">
        <thead>
          <tr>
            <th>Queue</th>
            <th>T_comm measured here</th>
            <th>Ceiling T_seq / T_comm</th>
          </tr>
        </thead>
        <tbody>
          {model.series.map((s) => (
            <tr key={s.queue} data-testid="t-comm" data-queue={s.queue}>
              <td>{s.label}</td>
              <td
                className="num"
                data-kind={s.tCommUs === null ? undefined : 'measured'}
                data-t-comm-us={s.tCommUs ?? ''}
              >
                {s.tCommUs === null ? '—' : `${(s.tCommUs * 1000).toPrecision(3)} ns`}
              </td>
              <td className="num" data-kind={s.tCommUs === null ? undefined : 'model'}>
                {s.tCommUs === null ? '—' : `${(model.tSeqUs / s.tCommUs).toPrecision(3)}×`}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="hint">
        T_seq = {model.tSeqUs.toPrecision(3)} µs per item
        {model.measuredTSeq
          ? ' (measured: one thread doing all the work)'
          : ' (set; not measured yet)'}
        . Beyond your {cores} cores the points are the twin&apos;s.
      </p>
    </div>
  );
}
