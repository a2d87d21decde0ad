// The recorder keeps what the page read of a run — every event once, in time order, the counters
// of each frame, the spec, engine, origin and summary — up to its cap; a capped recording is
// complete before the cut, says where it was cut, and replays up to there.
import { describe, expect, test } from 'vitest';
import { Recorder } from '../../../src/replay/recorder';
import { MAX_EVENTS, originLabel, replayKind, browserName } from '../../../src/replay/recording';
import { recordTwin, replayOf, twinSpec } from './twinRecording';

const spec = twinSpec('work-stealing');
const full = recordTwin(spec);

test('a recording holds the run: spec, engine, origin, summary, events and counters', () => {
  expect(full).toMatchObject({
    engine: 'simulation',
    workers: 3,
    spec,
    endedAs: 'done',
    summary: { items: 300, completed: 300 },
    cap: { maxEvents: MAX_EVENTS, reachedAtUs: null },
  });
  expect(full.durationUs).toBe(full.summary.elapsedUs);
  expect(full.samples.at(-1)!.counters.at(-1)!.itemsOut).toBe(300);
  const kinds = new Set(full.events.map((e) => e.kind));
  for (const k of ['start', 'end', 'steal-success', 'idle'] as const) expect(kinds).toContain(k);
  // The same seeded run recorded again is the same recording: nothing is invented or lost.
  expect(recordTwin(spec).events).toEqual(full.events);
});

test('counter samples never go back in time, even when the clock that ends a run does', () => {
  const recorder = new Recorder({ ...full, recordedAt: full.recordedAt });
  const frame = () => ({ events: [], counters: full.samples[0].counters, dropped: 0 });
  recorder.frame(frame(), 1000);
  recorder.frame(frame(), 2000);
  // A threads run ends at the C++ clock's 1950 µs after the page clock read 2000 µs.
  recorder.frame(frame(), 1950);
  const rec = recorder.finish('done', full.summary, 1950);
  expect(rec.samples.map((s) => s.timeUs)).toEqual([1000, 2000, 2000]);
  expect(rec.durationUs).toBe(2000);
});

describe('the size cap', () => {
  const maxEvents = 700;
  const capped = recordTwin(spec, { maxEvents, maxSamples: 36_000 });
  const cut = capped.cap.reachedAtUs!;

  test('stops keeping events at the cap and says where', () => {
    expect(cut).toBeGreaterThan(0);
    expect(capped.events.length).toBeLessThanOrEqual(maxEvents);
    expect(capped.durationUs).toBe(cut);
    expect(capped.cap.maxEvents).toBe(maxEvents);
    // The run itself went on to the end.
    expect(capped.summary.completed).toBe(300);
  });

  test('is complete before the cut: exactly the full run’s events there, and no later counters', () => {
    expect(capped.events).toEqual(full.events.filter((e) => e.timeUs < cut));
    expect(capped.samples.every((s) => s.timeUs <= cut)).toBe(true);
    expect(capped.samples.length).toBeGreaterThan(0);
  });

  test('replays up to the cut and ends there', () => {
    const page = replayOf(capped);
    page.run.setSpeed(4);
    for (let i = 0; i < 10_000 && !page.run.position().atEnd; i++) page.frame();
    expect(page.run.position()).toMatchObject({ atEnd: true, cursor: capped.events.length });
    expect(page.run.nowUs()).toBe(cut);
  });

  test('a cap on counter samples cuts at the last sample kept', () => {
    const few = recordTwin(spec, { maxEvents: MAX_EVENTS, maxSamples: 5 });
    expect(few.samples).toHaveLength(5);
    expect(few.cap.reachedAtUs).toBe(few.samples[4].timeUs);
    expect(few.events).toEqual(full.events.filter((e) => e.timeUs < few.cap.reachedAtUs!));
  });
});

test('a counter sample is never stamped before the events its frame carries', () => {
  const recorder = new Recorder({ ...full, recordedAt: full.recordedAt });
  // The page's clock says 2 ms; the frame's newest event (the C++ clock) says 41 ms.
  const events = full.events.filter((e) => e.timeUs < 41_000).slice(-3);
  recorder.frame({ events, counters: full.samples[0].counters, dropped: 0 }, 2_000);
  const rec = recorder.finish('done', full.summary, 50_000);
  expect(rec.samples[0].timeUs).toBe(events.at(-1)!.timeUs);
});

test('labels: what kind of run, which browser, cores and date', () => {
  expect(replayKind('threads')).toBe('Replay of a measured run');
  expect(replayKind('simulation')).toBe('Replay of a simulated run');
  expect(originLabel(full)).toBe('recorded in Chrome 131 with 2 cores, 2025-01-14 10:32 UTC');
  expect(
    browserName(
      'Mozilla/5.0 (Macintosh) AppleWebKit/605.1.15 (KHTML) Version/17.2 Safari/605.1.15',
    ),
  ).toBe('Safari 17.2');
  expect(browserName('Mozilla/5.0 (X11; Linux; rv:133.0) Gecko/20100101 Firefox/133.0')).toBe(
    'Firefox 133',
  );
  expect(browserName('Mozilla/5.0 Chrome/131.0 Safari/537.36 Edg/131.0')).toBe('Edge 131');
  expect(browserName('')).toBe('an unnamed browser');
});
