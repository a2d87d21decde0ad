// Whatever the TypeScript validator accepts, the C++ side runs (contracts/spec.md: TypeScript holds
// the rules people read; C++ checks only what its runtimes need, and must not refuse more). Random
// specs of every kind (validSpecs.ts) that the validator accepts go to the shipped Node module as
// the page sends them, run on real threads to the end, and owe what every run owes: every item out
// exactly once (runInvariants.ts); a phaser run every element through, no stall, every task done.
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { pipelineError } from '../../src/engine/pipeline/wasmPipeline';
import type { PipelabModule } from '../../src/engine/wasmExports';
import { parseExperimentSpec, SpecError, type ExperimentSpec } from '../../src/spec/experimentSpec';
import { streamGraph } from '../../src/spec/phaserGraph';
import { runOnThreads, type Collected } from './collectRun';
import { loadNodeModule, terminateThreads } from './nodeModule';
import { checkInvariants, inRunClockOrder } from './runInvariants';
import { candidateSpec } from './validSpecs';

let mod: PipelabModule;
beforeAll(async () => {
  mod = await loadNodeModule(4);
});
afterAll(() => terminateThreads(mod));

const RUNS = Number(process.env.PIPELAB_FUZZ_RUNS ?? 200);

/** Every element through (sinks, ring hops, a sieve's integers), each task done, nothing stalled;
 * a sink of a graph without a sieve ends each element once. */
function checkPhaserRun(spec: ExperimentSpec, { events, last }: Collected) {
  expect(mod._pl_pipeline_completed()).toBe(spec.items);
  expect(last.dropped).toBe(0);
  expect(last.board!.stalled).toBe(false);
  expect(last.board!.tasks.every((t) => t.state === 'done')).toBe(true);
  const sink = streamGraph(spec.stages, spec.streams!).sink;
  if (sink === null || spec.stages.some((s) => s.op === 'sieve')) return;
  const ends = events.filter((e) => e.kind === 'end' && e.stage === sink).map((e) => e.item);
  expect(ends.sort((a, b) => a - b)).toEqual(Array.from({ length: spec.items }, (_, i) => i));
}

test('every spec the validator accepts runs in C++ to the end, every item out once', async () => {
  const ran = new Map<string, number>();
  await fc.assert(
    fc.asyncProperty(candidateSpec, async (candidate) => {
      let spec: ExperimentSpec;
      try {
        spec = parseExperimentSpec(candidate);
      } catch (e) {
        if (e instanceof SpecError) fc.pre(false);
        throw e;
      }
      const run = inRunClockOrder(await runOnThreads(mod, spec));
      expect(pipelineError(mod)).toBe('');
      if (spec.runtime === 'phaser') checkPhaserRun(spec, run);
      else checkInvariants(spec, run);
      ran.set(spec.runtime, (ran.get(spec.runtime) ?? 0) + 1);
    }),
    { seed: 20261207, numRuns: RUNS },
  );
  // The generator reaches every kind (a kind it never writes validly would go unchecked).
  expect([...ran.keys()].sort()).toEqual([
    'barrier',
    'collapsed',
    'phaser',
    'static',
    'two-stage-input',
    'two-stage-output',
    'work-stealing',
  ]);
});
