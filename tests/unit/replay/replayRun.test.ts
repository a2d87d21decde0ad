// A replay is a PipelineRun over a recording: it hands the page every recorded event once, in
// order; stepping and seeking either way land on the same live state as playing straight there
// (moves back rebuild the tracker from the start); speed scales the clock, pause holds it, the
// end pauses and resume starts over; a ring the page has not read holds the clock, never drops.
import { describe, expect, test } from 'vitest';
import { countUpTo, sampleAt, type Recording } from '../../../src/replay/recording';
import { MAX_FRAME_MS, MAX_SPEED, MIN_SPEED, ReplayRun } from '../../../src/replay/replayRun';
import { parseExperimentSpec } from '../../../src/spec/experimentSpec';
import { readTap, type TelemetryEvent } from '../../../src/telemetry';
import { FRAME_MS, PageStandIn, recordTwin, replayOf, trackerFor, twinSpec } from './twinRecording';
import { barrierSpec } from '../sim/helpers';
import { sieve } from '../sim/phaserSpecs';

const RUNTIMES = ['static', 'work-stealing'] as const;
const recordings = Object.fromEntries(RUNTIMES.map((r) => [r, recordTwin(twinSpec(r))])) as Record<
  (typeof RUNTIMES)[number],
  Recording
>;

const brief = (e: TelemetryEvent) => [e.timeUs, e.worker, e.kind, e.stage, e.item, e.arg];

/** Plays frame by frame until the replay's clock passes `timeUs`. */
function playTo(page: ReturnType<typeof replayOf>, timeUs: number) {
  while (page.run.nowUs() < timeUs && !page.run.position().atEnd) page.frame();
}

describe.each(RUNTIMES)('replay of a %s twin run', (runtime) => {
  const rec = recordings[runtime];

  test('the recording is a real run: every item out once, events in time order', () => {
    const last = rec.spec.stages.length - 1;
    const outs = rec.events.filter((e) => e.kind === 'end' && e.stage === last).map((e) => e.item);
    expect(outs.sort((a, b) => a - b)).toEqual(Array.from({ length: 300 }, (_, i) => i));
    expect(rec.endedAs).toBe('done');
    for (let i = 1; i < rec.events.length; i++)
      expect(rec.events[i].timeUs).toBeGreaterThanOrEqual(rec.events[i - 1].timeUs);
  });

  test('playing hands the page every recorded event once, in the recorded order', () => {
    const run = new ReplayRun(rec, trackerFor(rec));
    const read: TelemetryEvent[] = [];
    for (let ms = 0; !run.position().atEnd; ms += FRAME_MS) {
      run.tick(ms);
      read.push(...readTap(run.tap()).events);
      expect(ms).toBeLessThan(60_000);
    }
    expect(read.map(brief)).toEqual(rec.events.map(brief));
    expect(run.state()).toBe('paused');
    expect(run.engine).toBe('simulation');
    expect(run.summary().completed).toBe(300);
  });

  test.each([0.1, 0.25, 0.4, 0.6])(
    'seeking back lands on the live state of a straight play to %s of the run',
    (fraction) => {
      const straight = replayOf(rec);
      playTo(straight, rec.durationUs * fraction);
      const there = straight.run.position();
      const further = replayOf(rec);
      playTo(further, rec.durationUs * 0.8);
      further.run.seek(there.clockUs);
      further.frame();
      expect(further.run.position()).toEqual({ ...there, atEnd: false });
      expect(further.snapshot()).toEqual(straight.snapshot());
      expect(further.run.state()).toBe('paused');
    },
  );

  test('stepping back one event at a time lands where stepping forward does', () => {
    const k = Math.floor(rec.events.length / 2);
    const forward = replayOf(rec, false);
    for (let i = 0; i < k; i++) {
      forward.run.stepEvent(1);
      if (i % 7 === 0) forward.frame();
    }
    forward.frame();
    const back = replayOf(rec, false);
    back.run.seek(rec.events[k + 25].timeUs);
    back.frame();
    while (back.run.position().cursor > k) {
      back.run.stepEvent(-1);
      back.frame();
    }
    expect(back.run.position()).toEqual(forward.run.position());
    expect(back.snapshot()).toEqual(forward.snapshot());
  });

  test('item steps move one item out of the last stage at a time, either way', () => {
    const last = rec.spec.stages.length - 1;
    const page = replayOf(rec, false);
    const positions: number[] = [];
    const snapshots = [];
    let out = 0;
    for (let i = 0; i < 40; i++) {
      page.run.stepItem(1);
      const { cursor } = page.run.position();
      page.frame();
      out += rec.events
        .slice(positions.at(-1) ?? 0, cursor)
        .filter((e) => e.kind === 'end' && e.stage === last).length;
      expect(out).toBe(i + 1);
      expect(rec.events[cursor - 1]).toMatchObject({ kind: 'end', stage: last });
      positions.push(cursor);
      snapshots.push(page.snapshot());
    }
    for (let i = 38; i >= 30; i--) {
      page.run.stepItem(-1);
      page.frame();
      expect(page.run.position().cursor).toBe(positions[i]);
      expect(page.snapshot()).toEqual(snapshots[i]);
    }
  });

  test('counters: items counted from the events handed over, the rest from the last sample', () => {
    const page = replayOf(rec, false);
    const t = rec.durationUs * 0.5;
    page.run.seek(t);
    page.frame();
    const cursor = countUpTo(rec.events, t);
    expect(page.run.position().cursor).toBe(cursor);
    const before = rec.events.slice(0, cursor);
    const count = (kind: string, s: number) =>
      before.filter((e) => e.kind === kind && e.stage === s).length;
    expect(readTap(page.run.tap()).counters).toEqual(
      sampleAt(rec.samples, t)!.counters.map((c, s) => ({
        ...c,
        itemsIn: count('start', s),
        itemsOut: count('end', s),
      })),
    );
    // One item forward is one more item out, on the page and in the summary.
    const out = page.run.summary().completed;
    page.run.stepItem(1);
    page.frame();
    expect(page.run.summary().completed).toBe(out + 1);
    expect(readTap(page.run.tap()).counters.at(-1)!.itemsOut).toBe(out + 1);
  });

  test('a run whose rings dropped events shows the sampled counters as they were read', () => {
    const samples = rec.samples.map((x) => ({ ...x, dropped: 3 }));
    const page = new PageStandIn(new ReplayRun({ ...rec, samples }, trackerFor(rec)));
    const t = rec.durationUs * 0.5;
    page.run.seek(t);
    page.frame();
    const frame = readTap(page.run.tap());
    expect(frame.counters).toEqual(sampleAt(samples, t)!.counters);
    expect(frame.dropped).toBe(3);
  });
});

test('a batch runtime (two-stage output) replays its sampled counters: its events are batches', () => {
  const spec = parseExperimentSpec({
    runtime: 'two-stage-output',
    stages: [
      {
        name: 'format',
        mode: 'parallel',
        threads: 2,
        service: { kind: 'exponential', meanUs: 40 },
      },
      { name: 'write', mode: 'serial-in-order', service: { kind: 'fixed', us: 500 } },
    ],
    batchItems: 16,
    items: 960,
    seed: 3,
  });
  const rec = recordTwin(spec);
  const page = replayOf(rec, false);
  const t = rec.durationUs * 0.5;
  page.run.seek(t);
  page.frame();
  const sampled = sampleAt(rec.samples, t)!.counters;
  expect(readTap(page.run.tap()).counters).toEqual(sampled);
  // Items, not batches: whole batches of 16 out by then, more items than end events.
  const out = sampled.at(-1)!.itemsOut;
  const batchEnds = rec.events
    .slice(0, countUpTo(rec.events, t))
    .filter((e) => e.kind === 'end' && e.stage === 1).length;
  expect(out).toBeGreaterThan(batchEnds);
  expect(page.run.summary().completed).toBe(out);
});

// What a replay counts must be what the live run counted (the lesson panel's "done / items").
test("a barrier run replays intervals, not the threads' slices of them", () => {
  const rec = recordTwin(barrierSpec(3, 2, 400, 60));
  expect(rec.summary.completed).toBe(60);
  const page = replayOf(rec, false);
  page.run.seek(rec.durationUs * 0.5);
  page.frame();
  const sampled = sampleAt(rec.samples, rec.durationUs * 0.5)!.counters;
  expect(page.run.summary().completed).toBe(sampled[0].itemsOut);
  expect(page.run.summary().completed).toBeLessThan(60);
  page.run.seek(rec.durationUs);
  page.frame();
  expect(page.run.position().atEnd).toBe(true);
  expect(page.run.summary().completed).toBe(60);
});

test('a sieve replays to the count its run ended with: every number, not the primes alone', () => {
  const rec = recordTwin(sieve({ us: 20 }, 199));
  const primes = rec.events.filter((e) => e.kind === 'end' && e.stage === 2).length;
  expect(primes).toBe(46); // the primes up to 199
  expect(rec.summary.completed).toBe(rec.spec.items); // 2..199, each leaving somewhere
  const page = replayOf(rec);
  while (!page.run.position().atEnd) page.frame();
  expect(page.run.summary().completed).toBe(rec.spec.items);
});

describe('clock', () => {
  const rec = recordings.static;

  test('speed scales the replay clock against the wall clock, within 0.1..4', () => {
    for (const speed of [MIN_SPEED, 0.5, 1, 2, MAX_SPEED]) {
      const run = new ReplayRun(rec, trackerFor(rec));
      run.setSpeed(speed);
      run.tick(1000); // the first frame sets the base
      run.tick(1010);
      expect(run.nowUs()).toBeCloseTo(10_000 * speed, 6);
      expect(run.speed()).toBe(speed);
    }
    const run = new ReplayRun(rec, trackerFor(rec));
    expect(() => run.setSpeed(5)).toThrow('replay speed 5 is out of range (allowed 0.1..4)');
    expect(() => run.setSpeed(0)).toThrow('replay speed 0 is out of range (allowed 0.1..4)');
    expect(() => run.setSpeed(Number.NaN)).toThrow('replay speed NaN is out of range');
    expect(() => run.seek(rec.durationUs + 1)).toThrow(/replay time .* µs is out of range/);
  });

  test('a frame after a stall (a hidden tab, a long task) moves the clock one frame at most', () => {
    const page = replayOf(rec);
    page.run.setSpeed(0.5);
    page.frame();
    page.frame();
    const before = page.run.nowUs();
    page.nowMs += 5000; // five seconds without a frame
    page.frame();
    // The rings were read, so only the cap holds the clock (without it: the end of the run).
    expect(page.run.nowUs() - before).toBeCloseTo(MAX_FRAME_MS * 1000 * 0.5, 6);
    expect(page.run.position().atEnd).toBe(false);
  });

  test('pause holds the clock and hands over nothing; resume goes on without a jump', () => {
    const page = replayOf(rec);
    playTo(page, rec.durationUs * 0.3);
    page.run.pause();
    const held = page.run.position();
    for (let i = 0; i < 20; i++) {
      page.frame();
      expect(readTap(page.run.tap()).events).toEqual([]);
    }
    expect(page.run.position()).toEqual(held);
    page.run.resume();
    page.frame();
    expect(page.run.nowUs()).toBe(held.clockUs);
    page.frame();
    expect(page.run.nowUs()).toBeCloseTo(held.clockUs + FRAME_MS * 1000, 6);
  });

  test('the end pauses the replay; resume from there starts over with a fresh live state', () => {
    const page = replayOf(rec);
    page.run.setSpeed(4);
    playTo(page, Infinity);
    expect(page.run.state()).toBe('paused');
    expect(page.run.position()).toMatchObject({ atEnd: true, cursor: rec.events.length });
    expect(page.run.summary()).toMatchObject({ completed: 300, items: 300 });
    page.run.resume();
    page.frame();
    expect(page.run.position().cursor).toBe(0);
    expect(page.snapshot().stealCount).toBe(0);
    expect(page.run.state()).toBe('running');
  });
});

test('a ring the page has not read holds the clock: the replay slows and drops nothing', () => {
  // One worker writes 20,000 events a µs apart: more than a ring holds in one frame at 4×.
  const spec = twinSpec('static');
  const events: TelemetryEvent[] = Array.from({ length: 20_000 }, (_, i) => ({
    timeUs: i,
    worker: 0,
    stage: 0,
    kind: i % 2 ? 'end' : 'start',
    item: i >> 1,
    arg: 0,
    seq: i,
  }));
  const rec: Recording = {
    ...recordings.static,
    spec,
    workers: spec.threads,
    durationUs: 20_000,
    events,
    samples: [],
    cap: { maxEvents: 20_000, reachedAtUs: null },
  };
  const run = new ReplayRun(rec, trackerFor(rec));
  run.setSpeed(4);
  const read: TelemetryEvent[] = [];
  let dropped = 0;
  for (let ms = 0; !run.position().atEnd; ms += 100) {
    run.tick(ms);
    const f = readTap(run.tap());
    read.push(...f.events);
    dropped = Math.max(dropped, f.dropped);
    expect(ms).toBeLessThan(10_000);
  }
  expect(dropped).toBe(0);
  expect(read.map((e) => e.timeUs)).toEqual(events.map((e) => e.timeUs));
});
