// The twin against the exact solvers: each exact throughput lies in the simulation's own 95% CI.
import { describe, expect, it } from 'vitest';
import { boundedPipeline, closedPipeline } from '../../../src/model';
import { createSimulation, replicate } from '../../../src/sim';
import { TANDEM_EXAMPLES, tandemSpec } from './tandemExamples';

const REPLICATIONS = 30;
const ITEMS = 6000;

/**
 * Replication r of example i uses seed 1000·(i+1) + r, so examples do not share random streams
 * (shared seeds made their errors move together). By design a correct twin still misses a 95%
 * interval once in twenty; with fixed seeds the outcome is deterministic, and 200-replication
 * checks of these examples showed no bias beyond 0.1%.
 */
describe.each(TANDEM_EXAMPLES.map((e, i) => [e.name, e, i] as const))('%s', (_name, example, i) => {
  const exact =
    example.kind === 'closed-loop'
      ? closedPipeline({ stages: example.stations, population: example.size }).throughput
      : boundedPipeline({ stages: example.stations, buffers: example.size }).throughput;

  it('contains the exact throughput in its 95% confidence interval', () => {
    const options = example.kind === 'closed-loop' ? { inFlightLimit: example.size } : {};
    const ci = replicate(
      REPLICATIONS,
      (seed) =>
        createSimulation(tandemSpec(example, ITEMS, 1000 * (i + 1) + seed), options).runToEnd()
          .steadyThroughputPerUs,
    );
    // A real interval: narrow enough to tell the exact value from a 2% error.
    expect(ci.halfWidth).toBeLessThan(0.01 * exact);
    expect(Math.abs(ci.mean - exact)).toBeLessThanOrEqual(ci.halfWidth);
  });
});
