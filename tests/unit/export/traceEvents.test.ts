// The trace export parsed against the Chrome trace-event format (the fields and types each kind of
// event requires), then checked as a trace of this run: a named track per worker, busy slices
// named for their stages, slices that tile each track without overlapping, in time order, busy
// time equal to the recorded services, steals where the run stole.
import { describe, expect, test } from 'vitest';
import { recordingToTrace } from '../../../src/export/traceEvents';
import { recordTwin, twinSpec } from '../replay/twinRecording';
import { barrierSpec } from '../sim/helpers';

/** Checks one event against the trace-event format; returns the problems found. */
function formatProblems(e: Record<string, unknown>, i: number): string[] {
  const bad: string[] = [];
  const need = (key: string, ok: (v: unknown) => boolean, what: string) => {
    if (!ok(e[key]))
      bad.push(`traceEvents[${i}].${key} = ${JSON.stringify(e[key])} is not ${what}`);
  };
  const isInt = (v: unknown) => Number.isInteger(v);
  const isTime = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v >= 0;
  const isObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
  need('name', (v) => typeof v === 'string' && v.length > 0, 'a name');
  need('ph', (v) => ['X', 'M', 'C', 'i'].includes(v as string), 'a phase this exporter writes');
  need('pid', isInt, 'an integer pid');
  if (e.cat !== undefined) need('cat', (v) => typeof v === 'string', 'a string category');
  switch (e.ph) {
    case 'X':
      need('tid', isInt, 'an integer tid');
      need('ts', isTime, 'a time in µs');
      need('dur', (v) => isTime(v) && (v as number) > 0, 'a positive duration in µs');
      break;
    case 'i':
      need('tid', isInt, 'an integer tid');
      need('ts', isTime, 'a time in µs');
      need('s', (v) => ['g', 'p', 't'].includes(v as string), 'an instant scope');
      break;
    case 'C':
      need('ts', isTime, 'a time in µs');
      need(
        'args',
        (v) => isObject(v) && Object.values(v as object).every((x) => typeof x === 'number'),
        'numeric series',
      );
      break;
    case 'M':
      need(
        'name',
        (v) => ['process_name', 'thread_name', 'thread_sort_index'].includes(v as string),
        'a metadata name',
      );
      need('args', isObject, 'an object');
      if (e.name !== 'process_name') need('tid', isInt, 'an integer tid');
      break;
  }
  return bad;
}

/** An event as the test reads it back from JSON. */
interface ReadEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur: number;
  cat?: string;
  args: Record<string, number | string>;
}

describe.each(['static', 'work-stealing'] as const)('trace of a %s run', (runtime) => {
  const rec = recordTwin(twinSpec(runtime));
  // Through JSON, as a viewer reads the file.
  const trace = JSON.parse(JSON.stringify(recordingToTrace(rec)));
  const events: ReadEvent[] = trace.traceEvents;
  const slices = events.filter((e) => e.ph === 'X');
  const tracks = new Map<number, ReadEvent[]>();
  for (const s of slices) tracks.set(s.tid, [...(tracks.get(s.tid) ?? []), s]);

  test('every event has the fields and types its kind requires', () => {
    expect(Array.isArray(trace.traceEvents)).toBe(true);
    expect(trace.displayTimeUnit).toBe('ms');
    expect(events.flatMap((e, i) => formatProblems({ ...e }, i))).toEqual([]);
  });

  test('one named track per worker, and a named process', () => {
    const names = events.filter((e) => e.name === 'thread_name');
    const tids = Array.from({ length: rec.workers }, (_, w) => w + 1);
    expect(names.map((e) => e.tid).sort()).toEqual(tids);
    expect(names.every((e) => /^worker \d/.test(String(e.args.name)))).toBe(true);
    expect([...tracks.keys()].sort()).toEqual(tids);
    expect(events.filter((e) => e.name === 'process_name')[0].args.name).toContain('simulated');
  });

  test('slices on a track are in time order, never overlap, and tile the run', () => {
    for (const [tid, track] of tracks) {
      for (let k = 1; k < track.length; k++) {
        expect(track[k].ts, `tid ${tid} slice ${k}`).toBeGreaterThanOrEqual(track[k - 1].ts);
        expect(track[k - 1].ts + track[k - 1].dur).toBeLessThanOrEqual(track[k].ts + 1e-6);
      }
      const covered = track.reduce((sum, s) => sum + s.dur, 0);
      expect(covered).toBeCloseTo(rec.durationUs, 2);
    }
    for (const kind of ['C', 'i']) {
      const ts = events.filter((e) => e.ph === kind).map((e) => e.ts);
      expect(ts).toEqual([...ts].sort((a, b) => a - b));
    }
  });

  test("busy slices carry the stage's name and add up to the recorded service time", () => {
    const stageNames = rec.spec.stages.map((s) => s.name);
    const busy = slices.filter((s) => s.cat === 'busy');
    expect(new Set(busy.map((s) => s.name))).toEqual(new Set(stageNames));
    for (const s of busy) expect(s.name).toBe(stageNames[Number(s.args.stage)]);
    // Recorded service time: from each start to the worker's next event that ends it.
    let serviceUs = 0;
    const since = new Map<number, number>();
    for (const e of rec.events) {
      if (e.kind === 'start') since.set(e.worker, e.timeUs);
      else if (e.kind === 'end' && since.has(e.worker)) {
        serviceUs += e.timeUs - since.get(e.worker)!;
        since.delete(e.worker);
      }
    }
    const busyUs = busy.reduce((sum, s) => sum + s.dur, 0);
    expect(busyUs).toBeGreaterThan(0);
    expect(Math.abs(busyUs - serviceUs)).toBeLessThan(busy.length * 0.002);
    const categories = new Set(slices.map((s) => s.cat));
    expect(categories).toContain('idle');
    if (runtime === 'work-stealing') {
      expect(categories).toContain('steal');
      const steals = events.filter((e) => e.ph === 'i');
      expect(steals).toHaveLength(rec.events.filter((e) => e.kind === 'steal-success').length);
      expect(steals.length).toBeGreaterThan(0);
    }
  });

  test('counter tracks end at the items the run put out', () => {
    const out = events.filter((e) => e.ph === 'C' && e.name === 'items out').at(-1)!;
    expect(out.args.output).toBe(300);
    expect(trace.otherData).toMatchObject({
      engine: 'simulation',
      recordedIn: 'Chrome 131',
      cores: 2,
    });
  });
});

test("a barrier run's trace shows a packed thread ready while its core runs a neighbour", () => {
  // 3 threads on 2 cores, packed: core 0 runs threads 0 and 2 in turns, thread 1 has core 1.
  const rec = recordTwin(barrierSpec(3, 2, 10_000, 4, { schedule: 'packed', quantumUs: 2_000 }));
  const slices = recordingToTrace(rec).traceEvents.filter((e) => e.ph === 'X');
  const readyUs = (tid: number) =>
    slices
      .filter((e) => e.tid === tid && e.cat === 'ready')
      .reduce((sum, e) => sum + (e as { dur: number }).dur, 0);
  const tids = [...new Set(slices.map((e) => e.tid!))].sort((a, b) => a - b);
  // Each of core 0's threads waits about as long as it computes; thread 1 never waits for a core.
  expect(readyUs(tids[0])).toBeGreaterThan(30_000);
  expect(readyUs(tids[2])).toBeGreaterThan(30_000);
  expect(readyUs(tids[1])).toBe(0);
  expect(slices.find((e) => e.cat === 'ready')!.name).toBe(
    'ready (its core running another thread)',
  );
});
