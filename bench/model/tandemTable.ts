// Model vs exact vs simulated throughput for the tandem examples (the table the bench prints).
import { boundedPipeline, closedPipeline, closedStaticModel } from '../../src/model';
import { createSimulation } from '../../src/runtimes';
import { replicate } from '../../src/sim';
import { TANDEM_EXAMPLES, tandemSpec } from '../../tests/unit/sim/tandemExamples';

export interface TandemRow {
  example: string;
  kind: string;
  /** Case 1 with T_arr = max T_ser (the paper's text) and with max T_ser/c. */
  modelPaper: number;
  modelPerServer: number;
  exact: number;
  simMean: number;
  simHalfWidth: number;
  replications: number;
  items: number;
}

export function tandemTable(replications: number, items: number): TandemRow[] {
  return TANDEM_EXAMPLES.map((example, i) => {
    const spec = tandemSpec(example, items, 1);
    const modelAt = (reading: 'max-service' | 'max-service-per-server') =>
      closedStaticModel(spec, { queueSize: example.size, reading }).throughputPerUs;
    const closedLoop = example.kind === 'closed-loop';
    const exact = closedLoop
      ? closedPipeline({ stages: example.stations, population: example.size }).throughput
      : boundedPipeline({ stages: example.stations, buffers: example.size }).throughput;
    const options = closedLoop ? { inFlightLimit: example.size } : {};
    const sim = replicate(
      replications,
      (seed) =>
        createSimulation(tandemSpec(example, items, seed), options).runToEnd()
          .steadyThroughputPerUs,
      1000 * (i + 1) + 1,
    );
    return {
      example: example.name,
      kind: example.kind,
      modelPaper: modelAt('max-service'),
      modelPerServer: modelAt('max-service-per-server'),
      exact,
      simMean: sim.mean,
      simHalfWidth: sim.halfWidth,
      replications,
      items,
    };
  });
}

export function formatTable(rows: TandemRow[]): string {
  const head = ['example', 'Case1 paper', 'Case1 T/c', 'exact', 'simulated (95% CI)'];
  const lines = rows.map((r) => [
    r.example,
    r.modelPaper.toFixed(4),
    r.modelPerServer.toFixed(4),
    r.exact.toFixed(4),
    `${r.simMean.toFixed(4)} ± ${r.simHalfWidth.toFixed(4)}`,
  ]);
  const widths = head.map((h, c) => Math.max(h.length, ...lines.map((l) => l[c].length)));
  const row = (cells: string[]) => cells.map((cell, c) => cell.padEnd(widths[c])).join('  ');
  return [row(head), ...lines.map(row)].map((l) => l.trimEnd()).join('\n');
}
