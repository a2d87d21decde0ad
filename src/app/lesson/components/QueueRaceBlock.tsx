// ::queue-race — every queue raced on the visitor's own cores: one producer and one consumer (or a
// chain of 4) move 8-byte items for a fixed time through each queue in turn, three rounds in a
// rotating order; the bars show items/s per queue (median, slowest to fastest round) as each run
// ends. Reports BatchQueue over the Vyukov MPMC queue for the paper rows. On fewer cores than
// threads it says the chain is oversubscribed and gives the twin's 4-core result beside it.
import { useEffect, useMemo } from 'react';
import { visitorCores } from '../../../engine/isolation';
import { RACE_QUEUES, type RaceQueue, type RaceVariant } from '../../../spec/raceConfig';
import { measured, measuredInNewestPlan, pairedRatio } from '../../../live/raceSummary';
import { formatRate } from '../../../views/format';
import { RaceBars, type RaceBarRow } from '../../../views/RaceBars';
import { benchRate } from '../../../lessons/queueBench';
import { PlanProgressLine } from '../../plan/PlanProgressLine';
import { ControlsPanel } from '../ControlsPanel';
import { useLesson } from '../lessonContext';
import { racePlan, RACE_ROUNDS, RACE_SEMI_ITEMS } from '../../queues/racePlans';
import { useRaceSession } from '../useRaceSession';
import { chainTwin } from '../../queues/chainTwin';
import { CHART_WIDTH_PX } from './layout';

export const QUEUE_LABELS: Record<RaceQueue, string> = {
  batch: 'BatchQueue (batched)',
  'batch-unpadded': 'BatchQueue, unpadded',
  lamport: 'Lamport (per item)',
  'lamport-unpadded': 'Lamport, unpadded',
  'cached-spsc': 'cached-index SPSC (per item)',
  'cached-spsc-batched': 'cached-index, batched (MCRingBuffer)',
  fastforward: 'FastForward (slot flags)',
  'vyukov-mpmc': 'Vyukov MPMC ("native")',
  mutex: 'mutex + condition variables',
};

/** The race's variant and chain length, from the lesson's `race` and `chain` controls. */
export function raceSetting(values: Record<string, number | string>): {
  variant: RaceVariant;
  stages: number;
} {
  return {
    variant: values.race === 'matrix' ? 'matrix' : 'comm',
    stages: values.chain === '4' ? 4 : 2,
  };
}

/** The config of one queue's runs in a race (the key its repeats share). */
export const raceConfigOf = (queue: RaceQueue, variant: RaceVariant, stages: number) => ({
  queue,
  variant,
  stages,
  semiItems: RACE_SEMI_ITEMS,
});

/** The committed benchmark's wasm-in-Chromium rows for this variant and chain (no visitor cores). */
function benchRows(variant: RaceVariant, stages: number): RaceBarRow[] {
  return RACE_QUEUES.map((q) => {
    let rate: RaceBarRow['rate'] = null;
    let repeats = 0;
    try {
      const r = benchRate('wasm-chromium', `${variant}-${stages}/${q}`);
      rate = r;
      repeats = r.repeats;
    } catch {
      // a queue the committed benchmark did not measure stays empty
    }
    return { queue: q, label: QUEUE_LABELS[q], rate, repeats, ours: q === 'batch' };
  });
}

export function QueueRaceBlock() {
  const { lesson, values, change, reportMeasured } = useLesson();
  const { state, plan, start } = useRaceSession('race');
  const { variant, stages } = raceSetting(values);
  const cores = visitorCores();
  const controls = lesson.controls.filter((c) => c.id === 'race' || c.id === 'chain');
  // The newest race of this variant and chain: its bars and its ratio are the same rounds.
  const byQueue = useMemo(() => {
    const configs = RACE_QUEUES.map((q) => raceConfigOf(q, variant, stages));
    const found = measuredInNewestPlan(state.results, state.plans, configs);
    return Object.fromEntries(RACE_QUEUES.map((q, i) => [q, found[i]])) as Record<
      RaceQueue,
      ReturnType<typeof measured>
    >;
  }, [state.results, state.plans, variant, stages]);
  const batchOverVyukov = pairedRatio(byQueue.batch, byQueue['vyukov-mpmc']);
  const oversubscribed = stages > cores;
  const rowId = `${variant}-${stages}`;
  useEffect(() => {
    // Only at the paper's scale: a chain of 4 on fewer cores is not what the paper measured.
    if (batchOverVyukov && !oversubscribed) reportMeasured(rowId, batchOverVyukov.median);
  }, [batchOverVyukov?.median, oversubscribed, rowId, reportMeasured]); // eslint-disable-line react-hooks/exhaustive-deps
  const twin = useMemo(
    () => (oversubscribed ? chainTwin(state.results, variant, stages) : null),
    [oversubscribed, state.results, variant, stages],
  );
  const racing = plan.running;
  return (
    <section
      className="queue-race"
      data-testid="queue-race"
      data-state={racing ? 'running' : state.results.length ? 'done' : 'idle'}
    >
      {state.unavailable ? (
        <p className="notice" data-testid="race-unavailable">
          The race needs real threads: {state.unavailable} The bars show the committed benchmark
          instead: wasm in headless Chromium on the machine that ran{' '}
          <code>npm run bench:queues</code>, not yours.
        </p>
      ) : (
        <>
          <ControlsPanel controls={controls} values={values} onChange={change} />
          <div className="buttons">
            <button
              data-testid="race-run"
              onClick={() => start('Race the queues', racePlan(variant, stages))}
            >
              {racing ? 'Restart the race' : 'Race the queues'}
            </button>
          </div>
          <PlanProgressLine plan={plan} />
          <p className="hint">
            {RACE_QUEUES.length} queues × {RACE_ROUNDS} rounds of a quarter second each, in a
            rotating order; each bar is the middle round, its whisker the slowest to the fastest.
            Measured on your {cores} cores, in WebAssembly.
          </p>
        </>
      )}
      {oversubscribed && (
        <p className="notice" data-testid="oversubscribed">
          A chain of {stages} threads on your {cores} cores is oversubscribed: the threads take
          turns on the cores, so the bars include what sharing them costs — not what the paper
          measured with a core per thread.
          {twin && (
            <>
              {' '}
              The twin&apos;s {stages}-core chain, each hop costing what it cost on your 2 threads
              (middle stages pop and push): BatchQueue {formatRate(twin.batch)} items/s, Vyukov{' '}
              {formatRate(twin.vyukov)} items/s, a ratio of{' '}
              <span data-kind="simulated" data-testid="chain-twin-ratio">
                {(twin.batch / twin.vyukov).toFixed(2)}×
              </span>{' '}
              (simulated; it has no cache, so it cannot show the knock-on delays along the chain).
            </>
          )}
          {!twin && ' Race the 2-thread chain first: the twin builds its chain from those hops.'}
        </p>
      )}
      {state.unavailable ? (
        <RaceBars widthPx={CHART_WIDTH_PX} source="benchmark" rows={benchRows(variant, stages)} />
      ) : (
        <RaceBars
          widthPx={CHART_WIDTH_PX}
          rows={RACE_QUEUES.map((q) => ({
            queue: q,
            label: QUEUE_LABELS[q],
            rate: byQueue[q]?.rate ?? null,
            repeats: byQueue[q]?.repeats ?? 0,
            ours: q === 'batch',
          }))}
        />
      )}
      {batchOverVyukov && (
        <p data-testid="race-ratio" data-kind="measured" data-ratio={batchOverVyukov.median}>
          Here BatchQueue moved {batchOverVyukov.median.toFixed(2)}× the items of the Vyukov MPMC
          queue: the middle of{' '}
          {batchOverVyukov.pairs === 1
            ? "1 round's ratio"
            : `${batchOverVyukov.pairs} rounds' ratios`}
          , each of two runs side by side ({batchOverVyukov.min.toFixed(2)}–
          {batchOverVyukov.max.toFixed(2)}×{oversubscribed ? ', oversubscribed' : ''}).
          {byQueue.batch && byQueue['vyukov-mpmc'] && (
            <>
              {' '}
              The bars&apos; middle runs, which need not come from one round, give{' '}
              {(byQueue.batch.rate.median / byQueue['vyukov-mpmc'].rate.median).toFixed(2)}×.
            </>
          )}
        </p>
      )}
      {state.error && (
        <p role="alert" className="notice error">
          {state.error}
        </p>
      )}
    </section>
  );
}
