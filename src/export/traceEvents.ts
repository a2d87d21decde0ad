// A recording as a Chrome trace-event JSON file, for the Perfetto UI and chrome://tracing: one
// track per worker thread (pid 1, tid = worker + 1, named by thread_name metadata), its time cut
// into complete ('X') slices of busy (named for the stage), idle, blocked and stealing — the same
// reading of events as the live timeline (laneStateAfter) — plus an instant per successful steal
// and counter tracks of items out and items queued per stage. Timestamps are µs from the run's
// start, at ns resolution; slices on a track never overlap.
import { dataKindOf } from '../engine/pipeline/pipelineRun';
import { laneStateAfter, type LaneState } from '../live/liveState';
import { browserName, type Recording } from '../replay/recording';
import { runtimeOf } from '../runtimes';
import { NO_ITEM } from '../telemetry';

export type TracePhase = 'X' | 'M' | 'C' | 'i';

export interface TraceEvent {
  name: string;
  ph: TracePhase;
  pid: number;
  tid?: number;
  cat?: string;
  /** µs (all but metadata). */
  ts?: number;
  /** µs ('X'). */
  dur?: number;
  /** Instant scope ('i'): t = thread. */
  s?: 't';
  args?: Record<string, string | number>;
}

export interface TraceFile {
  traceEvents: TraceEvent[];
  displayTimeUnit: 'ms';
  /** Shown by trace viewers as the trace's metadata. */
  otherData: Record<string, string | number>;
}

const PID = 1;
const tidOf = (worker: number) => worker + 1;
/** ns resolution: the boundaries are rounded once, so adjacent slices meet exactly. */
const ns = (us: number) => Math.round(us * 1000) / 1000;

const SLICE_NAME: Record<Exclude<LaneState, 'busy'>, string> = {
  idle: 'idle',
  blocked: 'blocked (next queue full)',
  stealing: 'stealing',
  ready: 'ready (its core running another thread)',
};
const CATEGORY: Record<LaneState, string> = {
  busy: 'busy',
  idle: 'idle',
  blocked: 'blocked',
  stealing: 'steal',
  ready: 'ready',
};

export function recordingToTrace(rec: Recording): TraceFile {
  const stageNames = uniqueNames(rec.spec.stages.map((s) => s.name));
  const kind = dataKindOf(rec.engine);
  const events: TraceEvent[] = [
    {
      name: 'process_name',
      ph: 'M',
      pid: PID,
      args: { name: `PipeLab ${rec.lesson?.slug ?? 'run'} (${kind}, ${rec.spec.runtime})` },
    },
  ];
  const stagesServed = Array.from({ length: rec.workers }, () => new Set<number>());
  for (const e of rec.events) if (e.kind === 'start') stagesServed[e.worker].add(e.stage);
  for (let w = 0; w < rec.workers; w++) {
    const served = [...stagesServed[w]].sort((a, b) => a - b).map((s) => stageNames[s]);
    const what = served.length > 0 && served.length <= 2 ? ` · ${served.join(', ')}` : '';
    events.push(
      {
        name: 'thread_name',
        ph: 'M',
        pid: PID,
        tid: tidOf(w),
        args: { name: `worker ${w}${what}` },
      },
      { name: 'thread_sort_index', ph: 'M', pid: PID, tid: tidOf(w), args: { sort_index: w } },
    );
  }
  events.push(...slices(rec, stageNames), ...counters(rec, stageNames));
  return {
    traceEvents: events,
    displayTimeUnit: 'ms',
    otherData: {
      source: `PipeLab recording of a ${kind} run`,
      engine: rec.engine,
      lesson: rec.lesson?.slug ?? '',
      recordedIn: browserName(rec.origin.userAgent),
      cores: rec.origin.cores,
      recordedAt: rec.recordedAt,
      endedAs: rec.endedAs,
      droppedEvents: rec.samples.at(-1)?.dropped ?? 0,
      cappedAtUs: rec.cap.reachedAtUs ?? '',
      spec: JSON.stringify(rec.spec),
    },
  };
}

/** Each worker's states as back-to-back slices from 0 to the recording's end (idle at first, as
 * the live timeline assumes), and an instant per successful steal. */
function slices(rec: Recording, stageNames: string[]): TraceEvent[] {
  const stages = rec.spec.stages.length;
  // The kind's `end` events may close a slice of an interval (the barrier's: src/runtimes).
  const { slicedEnds } = runtimeOf(rec.spec).live;
  const out: TraceEvent[] = [];
  const open = Array.from({ length: rec.workers }, () => ({
    state: 'idle' as LaneState,
    stage: null as number | null,
    item: NO_ITEM,
    fromUs: 0,
  }));
  const close = (w: number, untilUs: number) => {
    const o = open[w];
    const ts = ns(o.fromUs);
    const dur = ns(ns(untilUs) - ts);
    if (dur <= 0) return;
    const busy = o.state === 'busy' && o.stage !== null;
    out.push({
      name: busy ? stageNames[o.stage!] : SLICE_NAME[o.state as Exclude<LaneState, 'busy'>],
      cat: CATEGORY[o.state],
      ph: 'X',
      pid: PID,
      tid: tidOf(w),
      ts,
      dur,
      ...(busy
        ? { args: o.item === NO_ITEM ? { stage: o.stage! } : { stage: o.stage!, item: o.item } }
        : {}),
    });
  };
  for (const e of rec.events) {
    if (e.kind === 'steal-success')
      out.push({
        name: `stole from worker ${e.arg}`,
        cat: 'steal',
        ph: 'i',
        s: 't',
        pid: PID,
        tid: tidOf(e.worker),
        ts: ns(e.timeUs),
        args: { victim: e.arg },
      });
    const next = laneStateAfter(e, stages, slicedEnds);
    const o = open[e.worker];
    if (!next || (next.state === o.state && next.stage === o.stage)) continue;
    close(e.worker, e.timeUs);
    open[e.worker] = { ...next, item: e.item, fromUs: e.timeUs };
  }
  for (let w = 0; w < rec.workers; w++) close(w, rec.durationUs);
  return out;
}

/** Counter tracks from the page's per-frame samples: items out of and queued before each stage. */
function counters(rec: Recording, stageNames: string[]): TraceEvent[] {
  return rec.samples.flatMap((s) => {
    const per = (field: 'itemsOut' | 'queueOccupancy') =>
      Object.fromEntries(stageNames.map((name, i) => [name, s.counters[i][field]]));
    const ts = ns(s.timeUs);
    return [
      { name: 'items out', cat: 'counters', ph: 'C' as const, pid: PID, ts, args: per('itemsOut') },
      {
        name: 'items queued',
        cat: 'counters',
        ph: 'C' as const,
        pid: PID,
        ts,
        args: per('queueOccupancy'),
      },
    ];
  });
}

/** Stage names as counter series keys: a repeated name gets its stage number. */
function uniqueNames(names: string[]): string[] {
  return names.map((n, i) => (names.indexOf(n) === i ? n : `${n} #${i}`));
}
