// `npm run bench:model`: curve time, simulator events/s, tandem table → bench/results/model.json.
import { parseFlags, runMain } from '../lib/cli.mjs';
import { loadTracker, machineBlock } from '../lib/machine.mjs';
import { writeReport } from '../lib/report.mjs';
import { median } from '../lib/stats.mjs';
import { closedStaticModel, workStealingModel } from '../../src/model';
import { createSimulation } from '../../src/runtimes';
import { parseExperimentSpec, type ExperimentSpec } from '../../src/spec/experimentSpec';
import { formatTable, tandemTable } from './tandemTable';
import { formatWorkStealingTable, workStealingTable } from './workStealingTable';

const CURVE_REPEATS = 31;
const SIM_REPEATS = 5;

function timeMs(repeats: number, body: () => void): number {
  body();
  const samples: number[] = [];
  for (let r = 0; r < repeats; r++) {
    const t0 = performance.now();
    body();
    samples.push(performance.now() - t0);
  }
  return median(samples);
}

const ferret = (runtime: string, extra: Record<string, unknown>) =>
  parseExperimentSpec({
    runtime,
    stages: [
      { name: 'in', mode: 'serial-in-order', service: { kind: 'exponential', meanUs: 10 } },
      { name: 'seg', mode: 'parallel', threads: 4, service: { kind: 'exponential', meanUs: 60 } },
      { name: 'rank', mode: 'parallel', threads: 8, service: { kind: 'exponential', meanUs: 120 } },
      { name: 'out', mode: 'serial-in-order', service: { kind: 'exponential', meanUs: 8 } },
    ],
    queue: { kind: 'mutex', capacity: 16 },
    seed: 1,
    ...extra,
  });

function curveResults() {
  const ws = ferret('work-stealing', { threads: 16, tokens: 16, items: 1000 });
  const st = ferret('static', { items: 1000 });
  const points = Array.from({ length: 64 }, (_, i) => i + 1);
  const curves = [
    {
      variant: 'curve-64-work-stealing-tokens',
      run: () => points.forEach((n) => workStealingModel(ws, { tokens: n })),
    },
    {
      variant: 'curve-64-case1-queue-size',
      run: () => points.forEach((n) => closedStaticModel(st, { queueSize: n })),
    },
  ];
  return curves.map((c) => ({
    bench: 'model',
    target: 'node',
    runtime: 'model',
    variant: c.variant,
    points: 64,
    curve_ms: timeMs(CURVE_REPEATS, c.run),
    target_ms: 5,
    repeats: CURVE_REPEATS,
  }));
}

function simResult(runtime: string, spec: ExperimentSpec, telemetry: boolean) {
  let events = 0;
  let simItems = 0;
  const sink = telemetry ? () => void events++ : undefined;
  const rates: number[] = [];
  for (let r = 0; r < SIM_REPEATS; r++) {
    events = 0;
    const t0 = performance.now();
    const result = createSimulation(spec, { sink }).runToEnd();
    const seconds = (performance.now() - t0) / 1000;
    events = result.events;
    simItems = result.completed;
    rates.push(events / seconds);
  }
  const eventsPerS = median(rates);
  return {
    bench: 'model',
    target: 'node',
    runtime,
    variant: 'simulator',
    threads: spec.threads,
    tokens: spec.tokens,
    stages: spec.stages.length,
    items: simItems,
    events,
    events_per_s: eventsPerS,
    items_per_s: (eventsPerS / events) * simItems,
    telemetry,
    repeats: SIM_REPEATS,
  };
}

/** Every row gets a key naming its measurement (DESIGN.md bench format, extended). */
function keyOf(r: Record<string, unknown>): string {
  if (r.variant === 'simulator')
    return `simulator/${r.runtime}-telemetry-${r.telemetry ? 'on' : 'off'}`;
  if (r.variant === 'tandem') return `tandem/${r.example}`;
  if (r.variant === 'case3-vs-sim') return `case3-vs-sim/tokens-${r.tokens}`;
  return `curve/${r.variant}`;
}

async function main() {
  parseFlags('npm run bench:model --', {});
  const load = loadTracker();
  const results: Record<string, unknown>[] = curveResults();
  const items = 200_000;
  for (const telemetry of [true, false]) {
    results.push(simResult('static', ferret('static', { items }), telemetry));
    results.push(simResult('collapsed', ferret('collapsed', { items }), telemetry));
    results.push(
      simResult(
        'work-stealing',
        ferret('work-stealing', { threads: 16, tokens: 32, items }),
        telemetry,
      ),
    );
  }
  const table = tandemTable(30, 6000);
  for (const row of table)
    results.push({ bench: 'model', target: 'node', runtime: 'static', variant: 'tandem', ...row });
  const stealing = workStealingTable([1, 2, 4, 8, 16, 32, 64]);
  for (const row of stealing) {
    results.push({
      bench: 'model',
      target: 'node',
      runtime: 'work-stealing',
      variant: 'case3-vs-sim',
      ...row,
    });
  }
  const keyed = results.map((r) => ({ key: keyOf(r), ...r }));
  writeReport('model', { machine: machineBlock(load), results: keyed, ratios: [] });
  for (const r of results.filter((x) => x.variant === 'simulator' || 'curve_ms' in x)) {
    const value =
      'curve_ms' in r
        ? `${(r.curve_ms as number).toFixed(3)} ms`
        : `${((r.events_per_s as number) / 1e6).toFixed(2)} M events/s`;
    const telemetry = 'telemetry' in r ? `telemetry=${r.telemetry}` : '';
    console.log(
      [
        String(r.runtime).padEnd(14),
        String(r.variant).padEnd(32),
        telemetry.padEnd(16),
        value,
      ].join(' '),
    );
  }
  console.log('\nThroughput (items per time unit), tandem examples:\n' + formatTable(table));
  console.log('\nWork stealing, model vs simulated:\n' + formatWorkStealingTable(stealing));
}

runMain('bench:model', main);
