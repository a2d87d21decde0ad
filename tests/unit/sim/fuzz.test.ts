// Random specs (runtimes, modes, capacities, tokens, cores): every run finishes and conserves.
import { describe, expect, it } from 'vitest';
import { createSimulation } from '../../../src/runtimes';
import { Xoshiro128, type EventInput } from '../../../src/sim';
import { parseExperimentSpec } from '../../../src/spec/experimentSpec';

const MODES = ['serial-in-order', 'serial-out-of-order', 'parallel'] as const;
const RUNTIMES = ['static', 'collapsed', 'work-stealing'] as const;

function randomSpec(rng: Xoshiro128, seed: number) {
  const runtime = RUNTIMES[rng.below(3)];
  const stages = Array.from({ length: 1 + rng.below(6) }, (_, i) => {
    const mode = MODES[rng.below(3)];
    const services = [
      { kind: 'fixed', us: 1 + rng.below(20) },
      { kind: 'exponential', meanUs: 1 + rng.below(20) },
      { kind: 'uniform', minUs: 1, maxUs: 2 + rng.below(20) },
      { kind: 'bimodal', fastUs: 1, slowUs: 30, slowFraction: 0.2 },
    ];
    return {
      name: `s${i}`,
      mode,
      threads: mode === 'parallel' ? 1 + rng.below(4) : 1,
      service: services[rng.below(services.length)],
    };
  });
  const threads = 1 + rng.below(8);
  return parseExperimentSpec({
    runtime,
    stages,
    ...(runtime === 'work-stealing' ? { threads, tokens: 1 + rng.below(10) } : {}),
    queue: { kind: 'mutex', capacity: rng.below(4) === 0 ? null : 1 + rng.below(4) },
    items: 50 + rng.below(250),
    seed,
    ...(rng.below(3) === 0 ? { cores: 1 + rng.below(4) } : {}),
  });
}

describe('random specs', () => {
  it('all finish, serve each item once per stage and keep serial stages exclusive', () => {
    const rng = new Xoshiro128(2024);
    for (let run = 0; run < 60; run++) {
      const s = randomSpec(rng, run);
      const events: EventInput[] = [];
      const result = createSimulation(s, { sink: (e) => events.push(e) }).runToEnd();
      const label = `run ${run}: ${JSON.stringify(s)}`;
      expect(result.completed, label).toBe(s.items);
      for (let stage = 0; stage < s.stages.length; stage++) {
        const starts = events.filter((e) => e.kind === 'start' && e.stage === stage);
        const seen = new Set(starts.map((e) => e.item));
        expect(starts.length === s.items && seen.size === s.items, label).toBe(true);
        if (s.stages[stage].mode === 'serial-in-order') {
          expect(
            starts.every((e, i) => e.item === i),
            label,
          ).toBe(true);
        }
        expect(result.stages[stage].queueOccupancy, label).toBe(0);
      }
    }
  });
});
