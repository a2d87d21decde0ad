// The simulation engine through the same telemetry tap the threads engine fills: paced by the
// wall clock, every item out exactly once, counters and rings agree, pause holds time still, a
// stalled frame moves it by MAX_FRAME_MS at most, and no event is dropped however fast it goes.
import { describe, expect, test } from 'vitest';
import { MAX_FRAME_MS, SimulationRun } from '../../../src/engine/pipeline/simulationRun';
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

describe('nothing dropped, done only when every event is handed over', () => {
  // 20,000 items of 1 µs on 2 threads: 40,000 events in 10 ms of simulated time, ten times what
  // a 4,096-record ring holds; the old twin wrote one frame's worth at once and dropped the rest.
  const fast = parseExperimentSpec({
    runtime: 'static',
    stages: [{ name: 'only', mode: 'parallel', threads: 2, service: { kind: 'fixed', us: 1 } }],
    items: 20_000,
    seed: 1,
  });

  test('the rings never overflow; the run is done with its last event read', () => {
    const run = new SimulationRun(fast);
    const outs = new Set<number>();
    let frames = 0;
    for (let ms = 0; run.state() === 'running'; ms += 16) {
      run.tick(ms);
      const last = readTap(run.tap());
      for (const e of last.events) if (e.kind === 'end') outs.add(e.item);
      expect(last.dropped).toBe(0);
      frames++;
      expect(frames).toBeLessThan(1000);
    }
    expect(run.state()).toBe('done');
    // The frame that said done held the last events: nothing comes after it.
    expect(outs.size).toBe(20_000);
    run.tick(1e6);
    expect(readTap(run.tap()).events).toEqual([]);
    // Handed over across frames, the clock held meanwhile: the run took more than one frame.
    expect(frames).toBeGreaterThan(4);
    expect(run.summary()).toMatchObject({ completed: 20_000 });
  });

  test('a frame after a stall moves the twin by MAX_FRAME_MS at most', () => {
    // 2,000 items: about 330 ms of simulated time, longer than the cap.
    const run = new SimulationRun({ ...spec('static'), items: 2000 });
    run.tick(1000);
    run.tick(6000);
    expect(run.nowUs()).toBeCloseTo(MAX_FRAME_MS * 1000, 0);
  });
});
