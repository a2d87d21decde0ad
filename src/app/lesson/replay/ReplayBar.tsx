// The replay's controls, fixed at the bottom of the window while a replay drives the views, so
// the label saying whose numbers they are stays in sight wherever the page is scrolled: step an
// item or an event back or forward, play and pause, speed, a scrubber over the run time, exit.
import { useReducer } from 'react';
import { originLabel, replayKind } from '../../../replay/recording';
import { SPEEDS } from '../../../replay/replayRun';
import { formatCount, kindOf } from '../../../views/viewHelpers';
import { useLesson } from '../lessonContext';
import { formatSeconds } from './formatSeconds';
import { scrubberTarget } from './scrubber';
import '../lessonTools.css';

export function ReplayBar() {
  const { replay, run } = useLesson();
  // A seek moves the replay, not React's state: without a render in the same event, React put the
  // scrubber back to its old value after the 'input' event, and the 'change' event that follows
  // (a key, a drag's release) then sought back there (Home on the scrubber went to 0 and
  // straight back).
  const [, rendered] = useReducer((n: number) => n + 1, 0);
  const r = replay.active;
  if (!r) return null;
  const rec = r.recording;
  const at = r.position();
  const playing = r.state() === 'running';
  const kind = kindOf(rec.engine);
  const out = run.view?.summary?.completed ?? 0;
  return (
    <div
      className="replay-bar"
      role="region"
      aria-label="Replay controls"
      data-testid="replay-bar"
      data-kind={kind}
      data-state={playing ? 'playing' : 'paused'}
      data-cursor={at.cursor}
      data-events={at.events}
      data-clock-us={at.clockUs}
    >
      <p className="replay-label" data-testid="replay-label">
        <strong>{replayKind(rec.engine)}</strong> — {originLabel(rec)}.
        {rec.cap.reachedAtUs !== null && ' Cut at its cap: it replays up to there.'}
      </p>
      <div className="replay-controls">
        <button
          data-testid="replay-back-item"
          onClick={() => r.stepItem(-1)}
          title="Back to the previous item out of the last stage"
          aria-label="Back one item"
        >
          ◀◀ item
        </button>
        <button
          data-testid="replay-back-event"
          onClick={() => r.stepEvent(-1)}
          aria-label="Back one event"
        >
          ◀ event
        </button>
        {playing ? (
          <button data-testid="replay-pause" onClick={() => r.pause()}>
            ❚❚ Pause
          </button>
        ) : (
          <button data-testid="replay-play" onClick={() => r.resume()}>
            {at.atEnd ? '▶ Again' : '▶ Play'}
          </button>
        )}
        <button
          data-testid="replay-forward-event"
          onClick={() => r.stepEvent(1)}
          aria-label="Forward one event"
        >
          event ▶
        </button>
        <button
          data-testid="replay-forward-item"
          onClick={() => r.stepItem(1)}
          title="Forward to the next item out of the last stage"
          aria-label="Forward one item"
        >
          item ▶▶
        </button>
        <label className="replay-speed">
          Speed
          <select
            data-testid="replay-speed"
            value={r.speed()}
            onChange={(e) => r.setSpeed(Number(e.target.value))}
          >
            {SPEEDS.map((s) => (
              <option key={s} value={s}>
                {s}×
              </option>
            ))}
          </select>
        </label>
        <input
          type="range"
          className="replay-scrubber"
          data-testid="replay-scrubber"
          aria-label="Replay time"
          min={0}
          max={at.durationUs}
          step="any"
          value={at.clockUs}
          onChange={(e) => {
            r.seek(scrubberTarget(Number(e.target.value), at.durationUs));
            rendered();
          }}
        />
        <output className="replay-position" data-testid="replay-position">
          {formatSeconds(at.clockUs)} of {formatSeconds(at.durationUs)} · event{' '}
          {formatCount(at.cursor)} of {formatCount(at.events)} · {formatCount(out)} item
          {out === 1 ? '' : 's'} out
        </output>
        <button data-testid="replay-exit" onClick={replay.exit}>
          Exit replay
        </button>
      </div>
    </div>
  );
}
