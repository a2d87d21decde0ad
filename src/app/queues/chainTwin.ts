// The twin's chain of 4 on 4 cores, for a visitor with fewer cores: a static pipeline of 4 stages
// whose service times are the hops measured on the visitor's 2 threads — the end stages one side
// of a hop (1 / the 2-thread rate), the middle stages a pop and a push (twice that) — run by the
// discrete-event twin with a core per stage. It has no caches: what it shows is the chain's rate
// if every hop cost what it cost alone, not the knock-on delays the paper saw along a real chain.
import { parseExperimentSpec } from '../../spec/experimentSpec';
import { spreadOf } from '../../model/spread';
import { simulateRepeats } from '../../runtimes/repeats';
import type { RaceVariant } from '../../spec/raceConfig';
import { measured, type RaceRun } from '../../live/raceSummary';
import { RACE_SEMI_ITEMS } from './racePlans';

const TWIN_ITEMS = 2000;

/** Items/s of the twin's chain for BatchQueue and Vyukov, or null before their 2-thread runs. */
export function chainTwin(
  results: RaceRun[],
  variant: RaceVariant,
  stages: number,
): { batch: number; vyukov: number } | null {
  const rate = (queue: 'batch' | 'vyukov-mpmc') =>
    measured(results, { queue, variant, stages: 2, semiItems: RACE_SEMI_ITEMS })?.rate.median;
  const batch = rate('batch');
  const vyukov = rate('vyukov-mpmc');
  if (!batch || !vyukov) return null;
  return { batch: twinRate(1e6 / batch, stages), vyukov: twinRate(1e6 / vyukov, stages) };
}

function twinRate(hopUs: number, stages: number): number {
  const spec = parseExperimentSpec({
    runtime: 'static',
    stages: Array.from({ length: stages }, (_, i) => ({
      name: `stage ${i}`,
      mode: 'serial-in-order',
      service: { kind: 'fixed', us: i === 0 || i === stages - 1 ? hopUs : 2 * hopUs },
    })),
    queue: { kind: 'batch', capacity: 2 * RACE_SEMI_ITEMS },
    items: TWIN_ITEMS,
    seed: 1,
    cores: stages,
  });
  return spreadOf(simulateRepeats(spec).map((r) => r.throughputPerUs * 1e6)).median;
}
