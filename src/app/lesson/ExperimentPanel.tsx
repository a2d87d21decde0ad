// The lesson's experiment panel: controls, Run / Pause / Stop, which engine runs it and why, and
// the run's numbers next to the model's — each labelled with where it came from.
import { useRef } from 'react';
import type { ControlValues, LessonControl } from '../../lessons/controls';
import { OVERLAY_LABELS, type ModelOverlay } from '../../model';
import { itemNoun, modelItemsPerSec, runtimeOf } from '../../runtimes';
import type { ExperimentSpec } from '../../spec/experimentSpec';
import { sameSpec } from '../../spec/sameSpec';
import { formatRate } from '../../views/format';
import { kindOf } from '../../views/viewHelpers';
import { visitorCores } from '../../engine/isolation';
import { ControlsPanel } from './ControlsPanel';
import { DisturbedNote } from './DisturbedNote';
import { useKeepFocus } from './useKeepFocus';
import type { LessonRunView } from './useLessonRun';

export interface ExperimentPanelProps {
  controls: LessonControl[];
  values: ControlValues;
  onChange: (id: string, value: number | string) => void;
  spec: ExperimentSpec | null;
  specError: string | null;
  engine: { engine: 'threads' | 'simulation'; reason: string } | null;
  run: LessonRunView | null;
  models: ModelOverlay[];
  onRun: () => void;
  onPause: () => void;
  onResume: () => void;
  onStop: () => void;
  /** Whether a run (its spec object) was started at the controls' settings (useLessonSession). */
  ranAtControls: (runSpec: ExperimentSpec) => boolean;
  /** While a replay drives the views: what it replays ("Replay of a measured run") and from where. */
  replay?: { kind: string; origin: string } | null;
}

export function ExperimentPanel(p: ExperimentPanelProps) {
  const state = p.run?.state ?? 'idle';
  const replay = p.replay ?? null;
  /** A live run in flight (a replay has its own controls, in the replay bar). */
  const live = !replay && (state === 'running' || state === 'paused');
  const runRef = useRef<HTMLButtonElement>(null);
  const onButtonsFocus = useKeepFocus(runRef, live);
  const paused = state === 'paused';
  // A stopping run still runs (its threads finish the item in hand): "done" waits for their joins.
  const dataState =
    state === 'running' || state === 'paused' || state === 'stopping'
      ? 'running'
      : state === 'error' || p.specError
        ? 'error'
        : state === 'idle'
          ? 'idle'
          : 'done';
  const source = kindOf(p.run?.engine ?? 'simulation');
  const from = replay ? `${source}, replay` : source;
  const kind = p.spec ? runtimeOf(p.spec) : null;
  const noun = itemNoun(p.spec);
  // The run's numbers are for the settings it ran with; the model rows and the engine line are for
  // the controls now. When the controls moved since a run of theirs the panel says so instead of
  // pairing them silently (a view's own run of another spec moved no control: not said).
  const settingsMoved =
    !!p.run?.summary &&
    !!p.spec &&
    !replay &&
    p.ranAtControls(p.run.spec) &&
    !sameSpec(p.run.spec, p.spec);
  return (
    <section
      className="experiment"
      data-testid="experiment"
      data-engine={(replay && p.run?.engine) || (p.engine?.engine ?? 'simulation')}
      data-replay={replay ? 'true' : undefined}
      data-state={dataState}
      data-run-state={state}
      data-events-read={p.run?.eventsRead ?? 0}
      data-memory-bytes={p.run?.memoryBytes ?? 0}
      data-elapsed-us={p.run?.summary?.elapsedUs ?? 0}
    >
      {replay && (
        <p className="engine-badge replay" data-testid="replay-badge">
          {replay.kind}, {replay.origin}. The run numbers below and the views show the recording;
          Run starts a live run.
        </p>
      )}
      {p.engine && !replay && (
        <p className={`engine-badge ${p.engine.engine}`}>
          {p.engine.engine === 'threads' ? 'Real threads' : 'Simulated (discrete-event twin)'}:{' '}
          {p.engine.reason}.
        </p>
      )}
      <ControlsPanel controls={p.controls} values={p.values} onChange={p.onChange} />
      {p.specError && (
        <p role="alert" className="notice error">
          {p.specError}
        </p>
      )}
      <div className="buttons" onFocus={onButtonsFocus}>
        <button ref={runRef} data-testid="run" onClick={p.onRun} disabled={!p.spec}>
          {live ? 'Restart' : 'Run'}
        </button>
        {live && (
          // One element that turns from Pause into Resume and back, so focus stays on it.
          <button
            data-testid={paused ? 'resume' : 'pause'}
            onClick={paused ? p.onResume : p.onPause}
          >
            {paused ? 'Resume' : 'Pause'}
          </button>
        )}
        {live && (
          <button data-testid="stop" onClick={p.onStop}>
            Stop
          </button>
        )}
      </div>
      {!replay && state === 'stopping' && (
        <p className="notice" role="status" data-testid="stopping">
          Stopping: each thread finishes the item in hand and exits; the numbers are final once
          every thread has.
        </p>
      )}
      {live && p.run?.starting && (
        <p className="notice" role="status" data-testid="starting">
          Starting the run&apos;s threads (the first run also loads the WebAssembly module)…
        </p>
      )}
      <dl className="run-numbers">
        {p.run?.summary && (
          <>
            <dt>{kind?.nouns.done ?? 'Items out'}</dt>
            <dd data-testid="completed">
              {p.run.summary.completed} / {p.run.summary.items}
            </dd>
            <dt>Throughput ({from})</dt>
            <dd data-testid="throughput" data-kind={source}>
              {formatRate(p.run.summary.itemsPerSec)} {noun}/s
            </dd>
          </>
        )}
        {p.spec &&
          p.models.map((m) => {
            const y = modelItemsPerSec(m, p.spec!);
            return y === null ? null : (
              <div key={m} className="model-number">
                <dt>Model: {OVERLAY_LABELS[m]}</dt>
                <dd data-kind="model">
                  {formatRate(y)} {noun}/s
                </dd>
              </div>
            );
          })}
      </dl>
      {p.run && !settingsMoved && <DisturbedNote run={p.run} models={p.models} />}
      {settingsMoved && (
        <p className="notice" data-testid="settings-moved">
          {live
            ? 'The settings changed during this run: its numbers are for the settings it started with, the models for the settings now. Restart to run these.'
            : 'The settings changed since this run: its numbers are for the settings it ran with, the models for the settings now. Run to measure these.'}
        </p>
      )}
      {!replay &&
        !settingsMoved &&
        p.engine?.engine === 'threads' &&
        p.spec &&
        kind?.model.corePerThread &&
        p.spec.threads > visitorCores() && (
          <p className="notice" data-testid="oversubscribed">
            {p.spec.threads} threads share your {visitorCores()} cores, so each runs only part of
            the time. The models assume a core for every thread, so the gap between a measured point
            and the model here includes what sharing the cores costs.
          </p>
        )}
      {p.run && p.run.dropped > 0 && (
        <p className="notice">
          Telemetry rings were full{replay ? ' in the recorded run' : ''}:{' '}
          {p.run.dropped.toLocaleString('en-US')} events dropped (the run itself is unaffected). The
          views drawn from events miss them: where they fall, a thread can look idle or blocked
          while it worked.
        </p>
      )}
      {p.run?.error && (
        <p role="alert" className="notice error">
          {p.run.error}
        </p>
      )}
    </section>
  );
}
