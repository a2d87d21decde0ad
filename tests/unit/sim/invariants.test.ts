// Conservation, serial-in-order order, the token bound, queue capacity and the telemetry shape.
import { describe, expect, it } from 'vitest';
import {
  EVENT_KINDS,
  NO_ITEM,
  NO_STAGE,
  type EventKindName,
  type EventInput,
} from '../../../src/sim';
import { createSimulation } from '../../../src/runtimes';
import { capture, exponential, fixed, spec } from './helpers';

const stages3 = (threads: number) => [
  { name: 'in', mode: 'serial-in-order', service: exponential(3) },
  { name: 'work', mode: 'parallel', threads, service: exponential(20) },
  { name: 'out', mode: 'serial-in-order', service: exponential(2) },
];

const variants = {
  'static closed': spec({
    runtime: 'static',
    stages: stages3(4),
    queue: { kind: 'mutex', capacity: 3 },
    items: 500,
  }),
  'static open': spec({
    runtime: 'static',
    stages: stages3(4),
    queue: { kind: 'mutex', capacity: null },
    items: 500,
  }),
  collapsed: spec({
    runtime: 'collapsed',
    stages: [
      ...stages3(2).slice(0, 2),
      { name: 'more', mode: 'parallel', threads: 2, service: exponential(10) },
      stages3(1)[2],
    ],
    queue: { kind: 'mutex', capacity: 2 },
    items: 500,
  }),
  'work stealing': spec({
    runtime: 'work-stealing',
    stages: stages3(1),
    threads: 6,
    tokens: 5,
    items: 500,
  }),
  'parallel input (static)': spec({
    runtime: 'static',
    stages: [
      { name: 'in', mode: 'parallel', threads: 2, service: exponential(8) },
      { name: 'any', mode: 'serial-out-of-order', service: exponential(3) },
      stages3(1)[2],
    ],
    queue: { kind: 'mutex', capacity: 2 },
    items: 500,
  }),
  'parallel input (work stealing)': spec({
    runtime: 'work-stealing',
    stages: [
      { name: 'in', mode: 'parallel', service: exponential(8) },
      { name: 'any', mode: 'serial-out-of-order', service: exponential(3) },
      stages3(1)[2],
    ],
    threads: 4,
    tokens: 6,
    items: 500,
  }),
  'time-shared': spec({
    runtime: 'work-stealing',
    stages: stages3(1),
    threads: 8,
    tokens: 16,
    items: 500,
    cores: 3,
  }),
};

function byKind(events: EventInput[], kind: EventKindName, stage?: number) {
  return events.filter((e) => e.kind === kind && (stage === undefined || e.stage === stage));
}

describe.each(Object.entries(variants))('%s', (_name, s) => {
  const { events, result } = capture(s);

  it('emits records with exactly the contracts/telemetry.md fields, in time order', () => {
    const shapes = new Set(events.map((e) => Object.keys(e).sort().join(',')));
    expect([...shapes]).toEqual(['arg,item,kind,stage,timeUs,worker']);
    const bad = events.filter(
      (e, i) =>
        !EVENT_KINDS.includes(e.kind) ||
        !(e.stage === NO_STAGE || e.stage < s.stages.length) ||
        !(e.item === NO_ITEM || e.item < s.items) ||
        !(e.worker < result.workers.length) ||
        (i > 0 && e.timeUs < events[i - 1].timeUs),
    );
    expect(bad).toEqual([]);
    expect(result.events).toBe(events.length);
  });

  it('serves every item exactly once at every stage (conservation)', () => {
    for (let stage = 0; stage < s.stages.length; stage++) {
      for (const kind of ['start', 'end'] as const) {
        const items = byKind(events, kind, stage)
          .map((e) => e.item)
          .sort((a, b) => a - b);
        expect(items).toEqual(Array.from({ length: s.items }, (_, i) => i));
      }
      expect(result.stages[stage].itemsIn).toBe(s.items);
      expect(result.stages[stage].itemsOut).toBe(s.items);
      expect(result.stages[stage].queueOccupancy).toBe(0);
    }
    expect(result.completed).toBe(s.items);
  });

  it('runs serial stages one item at a time, serial-in-order ones in input order', () => {
    const serial = s.stages.flatMap((x, i) => (x.mode === 'parallel' ? [] : [i]));
    expect(serial.length).toBeGreaterThan(0);
    for (const stage of serial) {
      const starts = byKind(events, 'start', stage).map((e) => e.item);
      const inOrder = starts.every((item, i) => item === i);
      expect(inOrder).toBe(s.stages[stage].mode === 'serial-in-order');
      let busy = 0;
      let peak = 0;
      for (const e of events.filter((x) => x.stage === stage)) {
        if (e.kind === 'start') busy++;
        if (e.kind === 'end') busy--;
        peak = Math.max(peak, busy);
      }
      expect(peak).toBe(1);
    }
  });

  it('books busy time consistent with the makespan', () => {
    const busy = result.workers.reduce((a, w) => a + w.busyUs, 0);
    expect(busy).toBeGreaterThan(0);
    expect(busy).toBeLessThanOrEqual(result.makespanUs * result.workers.length + 1e-6);
  });
});

describe('bounds', () => {
  it('never holds more than `tokens` items in flight (work stealing)', () => {
    for (const tokens of [1, 3, 7]) {
      const s = variants['work stealing'];
      const { events } = capture({ ...s, tokens });
      let inFlight = 0;
      let peak = 0;
      for (const e of events) {
        if (e.kind === 'start' && e.stage === 0) inFlight++;
        if (e.kind === 'end' && e.stage === s.stages.length - 1) inFlight--;
        peak = Math.max(peak, inFlight);
      }
      expect(peak).toBe(tokens);
    }
  });

  it('never holds more than the inFlightLimit in a static token loop', () => {
    const { events } = capture(variants['static open'], { inFlightLimit: 4 });
    let inFlight = 0;
    let peak = 0;
    for (const e of events) {
      if (e.kind === 'start' && e.stage === 0) inFlight++;
      if (e.kind === 'end' && e.stage === 2) inFlight--;
      peak = Math.max(peak, inFlight);
    }
    expect(peak).toBe(4);
  });

  it('never fills a queue beyond its capacity, and blocks producers when full', () => {
    const s = variants['static closed'];
    const { events, result } = capture(s);
    const occupancy = byKind(events, 'enqueue').map((e) => e.arg);
    expect(Math.max(...occupancy)).toBe(3);
    expect(byKind(events, 'blocked-full').length).toBeGreaterThan(0);
    expect(result.stages[0].blockedUs).toBeGreaterThan(0);
    const open = capture(variants['static open']).events;
    expect(Math.max(...byKind(open, 'enqueue').map((e) => e.arg))).toBeGreaterThan(3);
    expect(byKind(open, 'blocked-full')).toHaveLength(0);
  });

  it('time-shares cores: two threads on one core take twice as long', () => {
    const one = spec({
      runtime: 'static',
      stages: [{ name: 'p', mode: 'parallel', threads: 2, service: fixed(10) }],
      items: 100,
    });
    const wide = createSimulation(one).runToEnd();
    const packed = createSimulation({ ...one, cores: 1 }).runToEnd();
    expect(wide.makespanUs).toBeCloseTo(500, 6);
    expect(packed.makespanUs).toBeCloseTo(1000, 6);
  });

  it('rejects bad simulation options naming the value', () => {
    const s = variants['work stealing'];
    expect(() => createSimulation(s, { stealCostUs: -1 })).toThrow('invalid stealCostUs: -1');
    expect(() => createSimulation(variants['static open'], { inFlightLimit: 0 })).toThrow(
      'invalid inFlightLimit: 0',
    );
  });
});
