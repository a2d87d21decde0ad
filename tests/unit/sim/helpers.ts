// Shared builders for simulation tests: specs, event capture and replication statistics.
import { parseExperimentSpec, type ExperimentSpec } from '../../../src/spec/experimentSpec';
import { createSimulation } from '../../../src/runtimes';
import type { SimOptions, EventInput } from '../../../src/sim';

export const exponential = (meanUs: number) => ({ kind: 'exponential', meanUs });
export const fixed = (us: number) => ({ kind: 'fixed', us });

export function spec(json: Record<string, unknown>): ExperimentSpec {
  return parseExperimentSpec({ items: 1000, seed: 1, ...json });
}

/** A barrier run: T threads, `perThreadUs` of work each when T threads share it (a compute stage
 * of T × perThreadUs), `intervals` intervals; `more` adds or overrides fields (cores, schedule, …). */
export function barrierSpec(
  threads: number,
  cores: number,
  perThreadUs: number,
  intervals: number,
  more: Record<string, unknown> = {},
): ExperimentSpec {
  return parseExperimentSpec({
    runtime: 'barrier',
    stages: [{ name: 'compute', mode: 'parallel', service: fixed(threads * perThreadUs) }],
    threads,
    cores,
    items: intervals,
    seed: 7,
    ...more,
  });
}

export function capture(s: ExperimentSpec, options: SimOptions = {}) {
  const events: EventInput[] = [];
  const result = createSimulation(s, { ...options, sink: (e) => events.push(e) }).runToEnd();
  return { events, result };
}
