// Case 3 (clamped and raw) and Ideal vs the simulated work-stealing runtime over token counts.
import { idealModel, workStealingModel } from '../../src/model';
import { createSimulation } from '../../src/runtimes';
import { parseExperimentSpec } from '../../src/spec/experimentSpec';

export interface WorkStealingRow {
  threads: number;
  tokens: number;
  case3: number;
  case3Raw: number;
  ideal: number;
  simulated: number;
}

/** Exponential stages 5 | 40 | 5 µs with serial-in-order ends, 8 threads, 20,000 items. */
export function workStealingTable(tokenCounts: number[]): WorkStealingRow[] {
  const exp = (meanUs: number) => ({ kind: 'exponential', meanUs });
  return tokenCounts.map((tokens) => {
    const spec = parseExperimentSpec({
      runtime: 'work-stealing',
      stages: [
        { name: 'in', mode: 'serial-in-order', service: exp(5) },
        { name: 'work', mode: 'parallel', service: exp(40) },
        { name: 'out', mode: 'serial-in-order', service: exp(5) },
      ],
      threads: 8,
      tokens,
      items: 20_000,
      seed: 1,
    });
    const model = workStealingModel(spec);
    return {
      threads: 8,
      tokens,
      case3: model.throughputPerUs,
      case3Raw: model.rawPerUs,
      ideal: idealModel(spec),
      simulated: createSimulation(spec).runToEnd().steadyThroughputPerUs,
    };
  });
}

export function formatWorkStealingTable(rows: WorkStealingRow[]): string {
  const head = 'tokens  Case3   Case3 raw  Ideal   simulated  (items/µs, 8 threads, 5|40|5 µs)';
  const lines = rows.map((r) =>
    [
      String(r.tokens).padEnd(6),
      r.case3.toFixed(4),
      r.case3Raw.toFixed(4).padEnd(9),
      r.ideal.toFixed(4),
      r.simulated.toFixed(4),
    ].join('  '),
  );
  return [head, ...lines].join('\n');
}
