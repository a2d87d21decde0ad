// Phaser runs, per task: the events of contracts/telemetry.md ("Phaser runs") name the task in
// `arg`, so the same lane tracker that draws one lane per thread can draw one lane per task —
// busy segments coloured by the thread that ran them (which thread runs which task), parked
// segments as the task's waits: for input (a wait not yet complete) or at the bound.
import type { TelemetryEvent } from '../telemetry';
import { LiveStateTracker } from './liveState';

/** A lesson draws this many task lanes at most (the sieve has hundreds of tasks). */
export const MAX_TASK_LANES = 12;

/**
 * The events as one lane per task: `worker` becomes the task, and a start's `stage` becomes the
 * thread (so lanes colour busy time by thread); a task that parks waiting for input shows as idle,
 * one parked at the bound as blocked. Events of no task (a thread idling) are left out.
 */
export function taskEvents(events: TelemetryEvent[]): TelemetryEvent[] {
  const out: TelemetryEvent[] = [];
  for (const e of events) {
    if (e.kind === 'start' || e.kind === 'end') out.push({ ...e, worker: e.arg, stage: e.worker });
    else if (e.kind === 'blocked-empty' || e.kind === 'blocked-full')
      out.push({ ...e, worker: e.arg });
  }
  return out;
}

/** A lane tracker for the first MAX_TASK_LANES tasks of a run on `threads` threads. */
export function taskLaneTracker(threads: number, windowUs: number): LiveStateTracker {
  return new LiveStateTracker(MAX_TASK_LANES, threads, windowUs);
}
