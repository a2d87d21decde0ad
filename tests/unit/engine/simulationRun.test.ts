// The simulation engine through the same telemetry tap the threads engine fills: paced by the
// wall clock, every item out exactly once, counters and rings agree, pause holds time still.
import { describe, expect, test } from 'vitest';
import { SimulationRun } from '../../../src/engine/pipeline/simulationRun';
import { readTap } from '../../../src/telemetry';
import { parseExperimentSpec } from '../../../src/spec/experimentSpec';

const spec = (runtime: 'static' | 'work-stealing') =>
  parseExperimentSpec({
    runtime,
    stages: [
      { name: 'in', mode: 'serial-in-order', threads: 1, service: { kind: 'fixed', us: 100 } },
      { name: 'work', mode: 'parallel', threads: 2, service: { kind: 'exponential', meanUs: 300 } },
      { name: 'out', mode: 'serial-in-order', threads: 1, service: { kind: 'fixed', us: 100 } },
    ],
    ...(runtime === 'work-stealing' ? { threads: 3, tokens: 4 } : {}),
    queue: { kind: 'batch', capacity: 2 },
    items: 200,
    seed: 3,
  });

describe.each(['static', 'work-stealing'] as const)('SimulationRun (%s)', (runtime) => {
  test('every item leaves the last stage exactly once, in order', () => {
    const run = new SimulationRun(spec(runtime));
    const outs: number[] = [];
    let frame = readTap(run.tap());
    for (let ms = 0; run.state() === 'running'; ms += 16) {
      run.tick(ms);
      frame = readTap(run.tap());
      for (const e of frame.events) if (e.kind === 'end' && e.stage === 2) outs.push(e.item);
      expect(ms).toBeLessThan(60_000);
    }
    expect(run.state()).toBe('done');
    expect(outs).toEqual(Array.from({ length: 200 }, (_, i) => i));
    expect(frame.counters[2].itemsOut).toBe(200);
    expect(frame.dropped).toBe(0);
    expect(run.summary()).toMatchObject({ items: 200, completed: 200 });
    expect(run.summary().itemsPerSec).toBeGreaterThan(0);
  });
});

describe('pacing', () => {
  test('simulated time follows the wall clock, and pause holds it', () => {
    const run = new SimulationRun(spec('static'));
    run.tick(1000);
    run.tick(1010);
    expect(run.nowUs()).toBeCloseTo(10_000, 0);
    run.pause();
    run.tick(5000);
    expect(run.nowUs()).toBeCloseTo(10_000, 0);
    expect(run.state()).toBe('paused');
  });

  test('stop ends the run where it is', () => {
    const run = new SimulationRun(spec('static'));
    run.tick(0);
    run.tick(5);
    run.stop();
    const before = run.summary().completed;
    run.tick(10_000);
    expect(run.state()).toBe('stopped');
    expect(run.summary().completed).toBe(before);
    expect(before).toBeLessThan(200);
  });
});
