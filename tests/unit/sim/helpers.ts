// Shared builders for simulation tests: specs, event capture and replication statistics.
import { parseExperimentSpec, type ExperimentSpec } from '../../../src/spec/experimentSpec';
import { createSimulation, type SimOptions, type EventInput } from '../../../src/sim';

export const exponential = (meanUs: number) => ({ kind: 'exponential', meanUs });
export const fixed = (us: number) => ({ kind: 'fixed', us });

export function spec(json: Record<string, unknown>): ExperimentSpec {
  return parseExperimentSpec({ items: 1000, seed: 1, ...json });
}

export function capture(s: ExperimentSpec, options: SimOptions = {}) {
  const events: EventInput[] = [];
  const result = createSimulation(s, { ...options, sink: (e) => events.push(e) }).runToEnd();
  return { events, result };
}
