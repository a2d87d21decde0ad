// Task lanes: a phaser run's events become one lane per task, busy in the colour slot of the thread
// that ran it, parked for input as idle and at the bound as blocked; thread-only events are left out.
import { describe, expect, test } from 'vitest';
import { MAX_TASK_LANES, taskEvents, taskLaneTracker } from '../../../src/live/taskLanes';
import type { TelemetryEvent } from '../../../src/telemetry';

const ev = (
  timeUs: number,
  kind: TelemetryEvent['kind'],
  worker: number,
  task: number,
  stage = 1,
) => ({ timeUs, kind, worker, stage, item: 0, arg: task, seq: 0 }) as TelemetryEvent;

describe('task lanes', () => {
  test('events name the task; a start colours its lane by the thread', () => {
    const out = taskEvents([
      ev(0, 'start', 1, 3),
      ev(10, 'end', 1, 3),
      ev(10, 'idle', 1, 0),
      ev(11, 'blocked-empty', 0, 2),
      ev(12, 'blocked-full', 0, 4),
    ]);
    expect(out.map((e) => [e.kind, e.worker, e.stage])).toEqual([
      ['start', 3, 1],
      ['end', 3, 1],
      ['blocked-empty', 2, 1],
      ['blocked-full', 4, 1],
    ]);
  });

  test('a task run on thread 0, then thread 1, shows both colours; parked time is idle or blocked', () => {
    const tracker = taskLaneTracker(2, 1000);
    tracker.advance(
      taskEvents([
        ev(0, 'start', 0, 0),
        ev(100, 'end', 0, 0),
        ev(100, 'blocked-empty', 0, 0),
        ev(300, 'start', 1, 0),
        ev(400, 'end', 1, 0),
        ev(400, 'blocked-full', 1, 0),
      ]),
      500,
    );
    const lane = tracker.snapshot().lanes[0];
    const kinds = lane.map((s) => (s.state === 'busy' ? `thread ${s.stage}` : s.state));
    expect(kinds).toEqual(['thread 0', 'idle', 'thread 1', 'blocked']);
  });

  test('tasks past MAX_TASK_LANES are left out', () => {
    const tracker = taskLaneTracker(2, 1000);
    tracker.advance(taskEvents([ev(0, 'start', 0, MAX_TASK_LANES + 5)]), 10);
    expect(tracker.snapshot().lanes).toHaveLength(MAX_TASK_LANES);
  });
});
