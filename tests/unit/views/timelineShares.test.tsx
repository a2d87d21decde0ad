// The timeline tells the truth (issue 39): the area a state takes in a drawn lane is its real share
// of the lane's time, within a bucket's resolution. Telemetry goes through the live tracker with
// the page's window and bucket count and is drawn by the Timeline; the shares are read back from
// the markup's rectangles. Drawn as each bucket's dominant state, short frequent work vanished: a
// stage busy 5% of every bucket drew 0%, lesson 4's writer about 4% while it worked about 20%.
import { readFileSync } from 'node:fs';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, test } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { LiveStateTracker } from '../../../src/live/liveState';
import { createSimulation, newLiveTracker } from '../../../src/runtimes';
import { parseExperimentSpec } from '../../../src/spec/experimentSpec';
import type { TelemetryEvent } from '../../../src/telemetry';
import { Timeline } from '../../../src/views/Timeline';

/** The page's timeline: 2 s of run time in 450 buckets (useLessonRun, LiveStateTracker). */
const WINDOW_US = 2_000_000;
const BUCKETS = 450;
const WIDTH = 900;

const attrs = (tag: string) =>
  Object.fromEntries([...tag.matchAll(/([\w:-]+)="([^"]*)"/g)].map((a) => [a[1], a[2]]));

/** Each lane's drawn share of the given state: the states' rectangles' area over the lane's. */
function drawnShares(html: string, state: string): number[] {
  const lanes = [...html.matchAll(/<g data-testid="lane">([\s\S]*?)<\/g>/g)].map((m) => m[1]);
  return lanes.map((lane) => {
    const rects = [...lane.matchAll(/<rect\b[^>]*>/g)].map((m) => attrs(m[0]));
    const track = rects.find((r) => r.class === 'lane-track')!;
    const area = rects
      .filter((r) => r['data-state'] === state)
      .reduce((a, r) => a + Number(r.width) * Number(r.height), 0);
    return area / (Number(track.width) * Number(track.height));
  });
}

const draw = (tracker: LiveStateTracker, stageNames: string[]) => {
  const live = tracker.snapshot();
  return renderToStaticMarkup(
    <Timeline
      lanes={live.lanes}
      stageNames={stageNames}
      nowUs={live.lanesNowUs}
      windowUs={WINDOW_US}
      source="simulation"
      width={WIDTH}
    />,
  );
};

let seq = 0;
const ev = (timeUs: number, kind: TelemetryEvent['kind']): TelemetryEvent => ({
  timeUs,
  worker: 0,
  kind,
  stage: 0,
  arg: 0,
  item: 0,
  seq: seq++,
});

describe('drawn shares are real shares', () => {
  test('a stage busy 5% of every bucket in short bursts draws 5%', () => {
    const tracker = new LiveStateTracker(1, 1, WINDOW_US, BUCKETS);
    // 10 µs of work every 200 µs for 3 s: about 22 bursts in each 4.4 ms bucket, each bucket 5%
    // busy and 95% idle, so every bucket's dominant state is idle.
    for (let frame = 0; frame < 100; frame++) {
      const events: TelemetryEvent[] = [];
      for (let t = frame * 30_000; t < (frame + 1) * 30_000; t += 200)
        events.push(ev(t + 50, 'start'), ev(t + 60, 'end'));
      tracker.advance(events, (frame + 1) * 30_000);
    }
    const [busy] = drawnShares(draw(tracker, ['work']), 'busy');
    // Within a bucket's resolution: one bucket of the 450 in the window.
    expect(Math.abs(busy - 0.05)).toBeLessThanOrEqual(1 / BUCKETS);
    const [idle] = drawnShares(draw(tracker, ['work']), 'idle');
    expect(Math.abs(idle - 0.95)).toBeLessThanOrEqual(1 / BUCKETS);
  });

  test("lesson 4's writer shows its real share of the window", () => {
    const text = readFileSync('lessons/04-ends-of-the-pipeline.md', 'utf8');
    const front = /^---\n([\s\S]*?)\n---/.exec(text)![1];
    const spec = parseExperimentSpec((parseYaml(front) as { experiment: unknown }).experiment);
    const events: TelemetryEvent[] = [];
    createSimulation(spec, { sink: (e) => events.push({ ...e, seq: 0 }) }).runToEnd();
    const writeStage = spec.stages.findIndex((s) => s.name === 'write');
    const writer = events.find((e) => e.kind === 'start' && e.stage === writeStage)!.worker;
    const workers = Math.max(...events.map((e) => e.worker)) + 1;
    const endUs = events.at(-1)!.timeUs;
    // The run's events in frames of about 30 ms, as the page reads them.
    const tracker = newLiveTracker(spec, workers, WINDOW_US);
    for (let from = 0, k = 0; from < endUs; from += 30_000) {
      const frame: TelemetryEvent[] = [];
      while (k < events.length && events[k].timeUs <= from + 30_000) frame.push(events[k++]);
      tracker.advance(frame, Math.min(endUs, from + 30_000));
    }
    // The real share: the writer's busy time (start to end of each item) inside the drawn window.
    const t0 = Math.max(0, endUs - WINDOW_US);
    let busyUs = 0;
    let since: number | null = null;
    for (const e of events) {
      if (e.worker !== writer) continue;
      if (e.kind === 'start' && e.stage === writeStage) since = e.timeUs;
      else if (e.kind === 'end' && since !== null) {
        busyUs += Math.max(0, e.timeUs - Math.max(since, t0));
        since = null;
      }
    }
    const real = busyUs / (endUs - t0);
    const html = renderToStaticMarkup(
      <Timeline
        lanes={tracker.snapshot().lanes}
        stageNames={spec.stages.map((s) => s.name)}
        nowUs={endUs}
        windowUs={Math.min(WINDOW_US, endUs)}
        source="simulation"
        width={WIDTH}
      />,
    );
    const drawn = drawnShares(html, 'busy')[writer];
    // The writer works a real part of the time (the lesson says about half at its settings).
    expect(real).toBeGreaterThan(0.1);
    expect(Math.abs(drawn - real)).toBeLessThanOrEqual(1 / BUCKETS + 0.005);
  });
});
