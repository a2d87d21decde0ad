// Zoom and scroll over a whole run's timeline once the run has ended or paused: the live lanes
// show only the last window (seconds), the run's history (src/live/runHistory.ts) all of it at a
// grain that coarsens as runs grow. Until the reader zooms or scrolls, the timeline keeps the live
// window it showed when the run stopped; a window inside that one still draws the live lanes,
// which are finer.
import { useState } from 'react';

export interface TimelineHistory<S = { startUs: number; endUs: number }> {
  lanes: S[][];
  /** The run's clock when the history was read: its lanes cover [0, nowUs]. */
  nowUs: number;
}

/** The narrowest window the zoom reaches (µs). */
const MIN_SPAN_US = 5_000;

interface Window {
  spanUs: number;
  endUs: number;
}

export interface ExplorerControls {
  runUs: number;
  shown: Window;
  set: (w: Window) => void;
}

/** What the timeline should draw (null: the live window as given) and the controls to offer
 * (null: no history, a run in flight). */
export function useExplorer<S>(
  history: TimelineHistory<S> | null,
  live: { lanes: S[][]; nowUs: number; windowUs: number },
): {
  view: { lanes: S[][]; nowUs: number; windowUs: number } | null;
  controls: ExplorerControls | null;
} {
  const [pick, setPick] = useState<(Window & { runUs: number }) | null>(null);
  if (!history || !(history.nowUs > 0)) return { view: null, controls: null };
  const runUs = history.nowUs;
  const picked = pick?.runUs === runUs ? pick : null;
  const shown = picked ?? { spanUs: Math.min(live.windowUs, runUs), endUs: live.nowUs };
  const set = ({ spanUs, endUs }: Window) => {
    const span = Math.min(runUs, Math.max(Math.min(MIN_SPAN_US, runUs), spanUs));
    setPick({ runUs, spanUs: span, endUs: Math.min(runUs, Math.max(span, endUs)) });
  };
  const insideLive =
    shown.endUs <= live.nowUs && shown.endUs - shown.spanUs >= live.nowUs - live.windowUs;
  return {
    view: picked && !insideLive ? { lanes: history.lanes, ...windowOf(picked) } : null,
    controls: { runUs, shown, set },
  };
}

const windowOf = (w: Window) => ({ nowUs: w.endUs, windowUs: w.spanUs });

/** A time on the run's clock for the range line: seconds past one, else ms. */
const clock = (us: number) =>
  us >= 1_000_000 ? `${(us / 1e6).toFixed(2)} s` : `${(us / 1e3).toFixed(us >= 10_000 ? 0 : 1)} ms`;

export function TimelineExplorer({ runUs, shown, set }: ExplorerControls) {
  const center = shown.endUs - shown.spanUs / 2;
  const zoom = (factor: number) => {
    const spanUs = shown.spanUs * factor;
    set({ spanUs, endUs: center + spanUs / 2 });
  };
  const whole = shown.spanUs >= runUs;
  return (
    <div className="timeline-explorer" data-testid="timeline-explorer">
      <button type="button" onClick={() => zoom(2)} disabled={whole}>
        Zoom out
      </button>
      <button type="button" onClick={() => zoom(0.5)} disabled={shown.spanUs <= MIN_SPAN_US}>
        Zoom in
      </button>
      <button type="button" onClick={() => set({ spanUs: runUs, endUs: runUs })} disabled={whole}>
        Whole run
      </button>
      <input
        aria-label="Scroll the timeline"
        type="range"
        min={0}
        max={1000}
        step={1}
        disabled={whole}
        value={
          whole ? 1000 : Math.round((1000 * (shown.endUs - shown.spanUs)) / (runUs - shown.spanUs))
        }
        aria-valuetext={`${clock(shown.endUs - shown.spanUs)} to ${clock(shown.endUs)}`}
        onChange={(e) =>
          set({
            spanUs: shown.spanUs,
            endUs: shown.spanUs + (Number(e.target.value) / 1000) * (runUs - shown.spanUs),
          })
        }
      />
      <span className="timeline-range" data-testid="timeline-range">
        {clock(Math.max(0, shown.endUs - shown.spanUs))}–{clock(shown.endUs)} of the run's{' '}
        {clock(runUs)}
      </span>
    </div>
  );
}
