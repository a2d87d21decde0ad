// ::wasm-fences — what the race just measured, explained: in WebAssembly every atomic access is
// sequentially consistent (V8 turns each atomic store into a locked exchange, a full fence), so a
// queue that publishes every item pays a fence per item while a batched one pays it once per
// semi-buffer. The table sets the per-item / batched ratios measured here, in the visitor's
// browser, beside the same ratios from the committed native benchmark, each labelled with where
// it came from.
import { useMemo } from 'react';
import type { RaceQueue } from '../../../spec/raceConfig';
import { benchRatio, type BenchRatio } from '../../../lessons/queueBench';
import { measuredInNewestPlan, pairedRatio, type PairedRatio } from '../../../live/raceSummary';
import { counted } from '../../../spec/words';
import { PlanProgressLine } from '../../plan/PlanProgressLine';
import { commConfig, commPlan, FENCE_QUEUES } from '../../queues/racePlans';
import { useRaceSession } from '../useRaceSession';

interface Comparison {
  id: string;
  what: string;
  batched: RaceQueue;
  perItem: RaceQueue;
}

const COMPARISONS: Comparison[] = [
  {
    id: 'same-ring',
    what: 'the same cached-index ring, publishing every 512 items against every item',
    batched: 'cached-spsc-batched',
    perItem: 'cached-spsc',
  },
  {
    id: 'batch-lamport',
    what: "BatchQueue's semi-buffers against Lamport's ring (a fence per item on each side)",
    batched: 'batch',
    perItem: 'lamport',
  },
];

function committed(c: Comparison, target: 'native' | 'wasm-chromium'): BenchRatio | null {
  try {
    return benchRatio(target, `comm-2/${c.batched}`, `comm-2/${c.perItem}`);
  } catch {
    return null;
  }
}

const fmt = (r: { median?: number; ratio?: number; min: number; max: number }) =>
  `${(r.median ?? r.ratio)!.toFixed(2)}× (${r.min.toFixed(2)}–${r.max.toFixed(2)})`;

export function WasmFencesBlock() {
  const { state, plan, start } = useRaceSession('fences');
  // The newest plan that measured all four (this table's, or a race of every queue).
  const here = useMemo(() => {
    const found = measuredInNewestPlan(state.results, state.plans, FENCE_QUEUES.map(commConfig));
    const of = (q: RaceQueue) => found[FENCE_QUEUES.indexOf(q)];
    return Object.fromEntries(
      COMPARISONS.map((c) => [c.id, pairedRatio(of(c.batched), of(c.perItem))]),
    ) as Record<string, PairedRatio | null>;
  }, [state.results, state.plans]);
  return (
    <div className="wasm-fences" data-testid="wasm-fences">
      <table className="fence-table">
        <thead>
          <tr>
            <th>Batched over per item (comm, 2 threads)</th>
            <th>Here: wasm in your browser</th>
            <th>Native C++ (committed benchmark)</th>
          </tr>
        </thead>
        <tbody>
          {COMPARISONS.map((c) => {
            const mine = here[c.id];
            const native = committed(c, 'native');
            return (
              <tr key={c.id} data-testid="fence-ratio" data-comparison={c.id}>
                <td>{c.what}</td>
                <td
                  className="num measured"
                  data-kind={mine ? 'measured' : undefined}
                  data-source="visitor"
                  data-ratio={mine?.median ?? ''}
                >
                  {mine ? `${fmt(mine)}, ${counted(mine.pairs, 'round')}` : '—'}
                </td>
                <td
                  className="num measured"
                  data-kind={native ? 'measured' : undefined}
                  data-source="benchmark"
                  data-ratio={native?.ratio ?? ''}
                  title={native?.evidence}
                >
                  {native ? fmt(native) : 'not in the committed results'}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {state.unavailable ? (
        <p className="notice">The middle column needs real threads: {state.unavailable}</p>
      ) : (
        <>
          <div className="buttons">
            <button
              data-testid="fences-run"
              onClick={() => start('Measure the fence ratios', commPlan(FENCE_QUEUES))}
              disabled={plan.running}
            >
              Measure these {COMPARISONS.length} ratios here ({FENCE_QUEUES.length} queues)
            </button>
            <span className="hint">
              (the race measures them too, with comm and 2 threads; the middle column shows the
              newer of the two, so after this button it need not match the race&apos;s bars)
            </span>
          </div>
          <PlanProgressLine plan={plan} />
        </>
      )}
    </div>
  );
}
