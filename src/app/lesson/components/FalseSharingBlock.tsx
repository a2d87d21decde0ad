// ::false-sharing — padded against unpadded layouts of BatchQueue and Lamport's ring, raced side by
// side on the visitor's threads (comm, 2 threads, rounds in a rotating order), with the layouts
// drawn from the C++ objects' real offsets: which fields share a cache line.
import { useEffect, useMemo } from 'react';
import type { RaceQueue } from '../../../spec/raceConfig';
import { measuredInNewestPlan, pairedRatio, type PairedRatio } from '../../../live/raceSummary';
import { counted } from '../../../spec/words';
import { QueueLayoutView } from '../../../views/QueueLayoutView';
import { RaceBars } from '../../../views/RaceBars';
import { PlanProgressLine } from '../../plan/PlanProgressLine';
import { commConfig, commPlan, FALSE_SHARING_QUEUES } from '../../queues/racePlans';
import { useRaceSession } from '../useRaceSession';
import { QUEUE_LABELS } from './QueueRaceBlock';
import { CHART_WIDTH_PX } from './layout';

const PAIRS: Array<[RaceQueue, RaceQueue, string]> = [
  ['batch', 'batch-unpadded', 'BatchQueue'],
  ['lamport', 'lamport-unpadded', "Lamport's ring"],
];

export function FalseSharingBlock() {
  const { state, session, plan, start } = useRaceSession('false-sharing');
  useEffect(() => session.requestLayouts(), [session]);
  // The newest plan that raced all four (this panel's, or a race of every queue): the bars and
  // the ratios below are the same rounds.
  const byQueue = useMemo(() => {
    const found = measuredInNewestPlan(
      state.results,
      state.plans,
      FALSE_SHARING_QUEUES.map(commConfig),
    );
    return Object.fromEntries(FALSE_SHARING_QUEUES.map((q, i) => [q, found[i]]));
  }, [state.results, state.plans]);
  return (
    <div className="false-sharing" data-testid="false-sharing">
      {state.unavailable ? (
        <p className="notice">Padded against unpadded needs real threads: {state.unavailable}</p>
      ) : (
        <>
          <div className="buttons">
            <button
              data-testid="false-sharing-run"
              onClick={() => start('Race padded against unpadded', commPlan(FALSE_SHARING_QUEUES))}
              disabled={plan.running}
            >
              Race padded against unpadded
            </button>
          </div>
          <PlanProgressLine plan={plan} />
        </>
      )}
      <RaceBars
        widthPx={CHART_WIDTH_PX}
        rows={FALSE_SHARING_QUEUES.map((q) => ({
          queue: q,
          label: QUEUE_LABELS[q],
          rate: byQueue[q]?.rate ?? null,
          repeats: byQueue[q]?.repeats ?? 0,
          ours: q === 'batch' || q === 'lamport',
        }))}
      />
      {PAIRS.map(([padded, unpadded, name]) => {
        const r = pairedRatio(byQueue[padded] ?? null, byQueue[unpadded] ?? null);
        return r ? (
          <p
            key={padded}
            data-testid="padding-ratio"
            data-kind="measured"
            data-ratio={r.median}
            data-min={r.min}
            data-max={r.max}
          >
            {`${name} padded moved ${r.median.toFixed(2)}× the items of ${name} unpadded ` +
              `(${r.min.toFixed(2)}–${r.max.toFixed(2)}× over ${counted(r.pairs, 'round')}, measured here). ` +
              paddingVerdict(name, r)}
          </p>
        ) : null;
      })}
      {state.layouts && (
        <div className="layout-grid">
          {(['batch', 'batch-unpadded', 'lamport', 'lamport-unpadded'] as const).map((q) => (
            <QueueLayoutView key={q} layout={state.layouts![q]} title={QUEUE_LABELS[q]} />
          ))}
          <p className="hint layout-legend">
            <span className="swatch producer" /> written by the producer{' '}
            <span className="swatch consumer" /> by the consumer <span className="swatch both" /> by
            both (the flag) <span className="swatch none" /> by neither after construction. A red
            frame marks a line both cores write: in the padded BatchQueue only the flag&apos;s own
            line, in the unpadded layouts the lines every push and pop write. Offsets from the C++
            objects in this wasm module (4-byte pointers and sizes).
          </p>
        </div>
      )}
    </div>
  );
}

/** Which way padding moved a queue, as the rounds' ratios (padded / unpadded) say: one way only
 * when every round agrees. Lamport's ring can go either way (its indices are truly shared; the
 * lesson's prose says why), so the sentence is read off the numbers, never assumed. */
export function paddingVerdict(name: string, r: PairedRatio): string {
  const every = r.pairs === 1 ? 'the one round' : `all ${r.pairs} rounds`;
  if (r.min > 1) return `Padding sped ${name} up in ${every}.`;
  if (r.max < 1) return `Padding slowed ${name} down in ${every}.`;
  return `Padding did not move ${name} the same way in every round.`;
}
