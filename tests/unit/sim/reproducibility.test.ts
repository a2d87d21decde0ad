// Same seed → identical event stream; different seed → different; stepping equals running through.
import { describe, expect, it } from 'vitest';
import { createSimulation } from '../../../src/runtimes';
import type { EventInput } from '../../../src/sim';
import { capture, exponential, spec } from './helpers';

const runtimes = {
  static: spec({
    runtime: 'static',
    stages: [
      { name: 'in', mode: 'serial-in-order', service: exponential(5) },
      { name: 'work', mode: 'parallel', threads: 3, service: exponential(12) },
      { name: 'out', mode: 'serial-in-order', service: exponential(4) },
    ],
    queue: { kind: 'mutex', capacity: 2 },
    items: 300,
  }),
  'work-stealing': spec({
    runtime: 'work-stealing',
    stages: [
      { name: 'in', mode: 'serial-in-order', service: exponential(5) },
      { name: 'work', mode: 'parallel', service: exponential(12) },
      { name: 'out', mode: 'serial-in-order', service: exponential(4) },
    ],
    threads: 4,
    tokens: 6,
    items: 300,
  }),
};

describe.each(Object.entries(runtimes))('%s runtime', (_name, base) => {
  it('repeats the exact event stream for a seed', () => {
    const a = capture(base).events;
    const b = capture(base).events;
    expect(a.length).toBeGreaterThan(1000);
    expect(b).toEqual(a);
  });

  it('changes the stream with the seed', () => {
    const a = capture(base).events;
    const b = capture({ ...base, seed: 2 }).events;
    expect(b).not.toEqual(a);
  });

  it('advanceTo in small steps emits the same events as runToEnd', () => {
    const whole = capture(base).events;
    const stepped: EventInput[] = [];
    const sim = createSimulation(base, { sink: (e) => stepped.push(e) });
    let t = 0;
    while (!sim.done) {
      t += 37;
      sim.advanceTo(t);
      expect(sim.nowUs).toBe(t);
      expect(stepped.every((e) => e.timeUs <= t)).toBe(true);
    }
    expect(stepped).toEqual(whole);
  });
});
