// Under the experiment: record a run, and what a recording offers — replay it, save it, export
// its trace or its counters; open a saved one (file picker, or drop it anywhere on the page).
// Every sentence here is about the recording it names: its kind, its numbers, its limits.
import { useRef } from 'react';
import { MAX_EVENTS, MAX_SAMPLES, type Recording } from '../../../replay/recording';
import { itemNoun } from '../../../runtimes';
import { formatCount, kindOf } from '../../../views/viewHelpers';
import { useLesson } from '../lessonContext';
import { formatSeconds } from './formatSeconds';
import '../lessonTools.css';

/** "300 of 300 items in 5.12 s" (intervals for a barrier run) — or how far a stopped run got. */
function howItRan(rec: Recording): string {
  const { completed, items, elapsedUs } = rec.summary;
  const ended =
    rec.endedAs === 'done'
      ? ''
      : rec.endedAs === 'stopped'
        ? ', stopped there'
        : ', ended by an error';
  return `${completed} of ${items} ${itemNoun(rec.spec)} in ${formatSeconds(elapsedUs)}${ended}`;
}

export function RecordPanel() {
  const { spec, engine, replay } = useLesson();
  const picker = useRef<HTMLInputElement>(null);
  const { recording, recorder, notice } = replay;
  const cutUs = recording?.cap.reachedAtUs ?? null;
  const dropped = recording?.samples.at(-1)?.dropped ?? 0;
  return (
    <section
      className="record-panel"
      data-testid="record-panel"
      data-state={recorder ? 'recording' : recording ? 'ready' : 'none'}
      aria-label="Record and replay"
    >
      <div className="buttons">
        <button
          data-testid="record"
          onClick={replay.record}
          disabled={!spec || !engine || !!recorder}
        >
          ● Record a run
        </button>
        <button data-testid="open-recording" onClick={() => picker.current?.click()}>
          Open a recording…
        </button>
        <input
          ref={picker}
          type="file"
          accept=".json,application/json"
          hidden
          data-testid="recording-file"
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) void replay.open(file);
          }}
        />
      </div>
      {recorder && (
        <p className="recording-now" data-testid="recording-now">
          ● Recording this{' '}
          {recorder.meta.engine === 'threads' ? 'run on real threads' : 'simulated run'}:{' '}
          {formatCount(recorder.eventCount)} events so far (a recording keeps at most{' '}
          {formatCount(recorder.limits.maxEvents)}).
        </p>
      )}
      {recording && !recorder && (
        <div className="recording" data-testid="recording" data-kind={kindOf(recording.engine)}>
          <p>
            Recording of a {kindOf(recording.engine)} run: {howItRan(recording)};{' '}
            {formatCount(recording.events.length)} events
            {cutUs !== null && ` over its first ${formatSeconds(recording.durationUs)}`}.
          </p>
          <div className="buttons">
            <button data-testid="replay" onClick={() => replay.replay(recording)}>
              Replay
            </button>
            <button data-testid="save-recording" onClick={() => replay.save(recording)}>
              Save recording
            </button>
            <button
              data-testid="export-trace"
              onClick={() => replay.exportTrace(recording)}
              title="Chrome trace-event JSON: open it in the Perfetto UI or chrome://tracing"
            >
              Trace (Perfetto)
            </button>
            <button data-testid="export-run-csv" onClick={() => replay.exportRunCsv(recording)}>
              Run data (CSV)
            </button>
          </div>
          {cutUs !== null && (
            <p className="notice" data-testid="recording-cap">
              This recording reached its size cap at {formatSeconds(cutUs)} of the run (it keeps at
              most {formatCount(recording.cap.maxEvents)} events and {formatCount(MAX_SAMPLES)}{' '}
              counter samples, one a frame): it holds everything before that and replays that far;
              the run itself went on.
            </p>
          )}
          {dropped > 0 && (
            <p className="notice">
              The run&apos;s telemetry rings were full at times: {formatCount(dropped)} events were
              dropped before they could be recorded, so the replay and the trace lack them.
            </p>
          )}
        </div>
      )}
      {notice && (
        <p role="alert" className={`notice ${notice.kind}`} data-testid="replay-notice">
          {notice.message}
          {notice.link && (
            <>
              {' '}
              <a href={notice.link.href}>{notice.link.text}</a>.
            </>
          )}
        </p>
      )}
      {!recording && !recorder && (
        <p className="hint">
          Record a run to replay it step by step, save it for a talk, or export its trace — up to{' '}
          {formatCount(MAX_EVENTS)} events. A saved recording opens here, or dropped anywhere on
          this page.
        </p>
      )}
      {replay.dragging && (
        <div className="drop-target" data-testid="drop-target">
          Drop a PipeLab recording to replay it
        </div>
      )}
    </section>
  );
}
