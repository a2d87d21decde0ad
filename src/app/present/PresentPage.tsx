// Presenter mode, #/present/<slug>?…&step=N: a lesson for a talk, as slides. A slide is the step's
// title as a one-line caption, the views the step's section places (steps.ts, stageViews) as large
// as the screen allows, and a compact bar of the controls the step needs with Run; every text on
// it at least 24 px and every chart label at least 16 px at 1280×720 (FitBox never scales the
// views below that floor; a step whose views do not fit at it says so to the presenter). The
// step's prose is the speaker's notes in the presenter's window (on a phone the step scrolls and
// shows its prose instead); →/← move between steps (the
// lesson's sections), space runs and pauses, s sweeps, r resets, f toggles full screen, a opens an
// audience window, ? lists the keys. With an audience window open (it runs the
// experiment, mirrored over a BroadcastChannel), this window shows the speaker's notes and the
// audience's run status, and its controls steer the audience window.
import 'katex/dist/katex.min.css';
import './present.css';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { ControlValues } from '../../lessons/controls';
import type { ComponentName } from '../../lessons/components';
import type { Lesson } from '../../lessons/loadLessons';
import { itemNoun } from '../../runtimes';
import { ControlsPanel } from '../lesson/ControlsPanel';
import { Prose } from '../lesson/Prose';
import { LessonContext, useLesson } from '../lesson/lessonContext';
import { readControlValues } from '../lesson/lessonControls';
import { ShownControls } from '../lesson/shownControls';
import { LESSON_COMPONENTS } from '../lesson/registry';
import { ReplayBar } from '../lesson/replay/ReplayBar';
import { ShareButton } from '../lesson/ShareButton';
import { useLessonSession } from '../lesson/useLessonSession';
import { parseIntParam } from '../queryParams';
import { lessonHash, routeHash } from '../route';
import {
  openChannel,
  type AudienceStatus,
  type PresenterCommand,
  type PresenterMessage,
} from './audienceChannel';
import { FitBox } from './FitBox';
import { actionForKey, PRESENTER_KEYS, type PresenterAction } from './presentKeys';
import { presenterSteps, stageControls, stageViews } from './steps';

/** Parameters the presenter takes besides the lesson's controls. */
export const PRESENT_PARAMS = ['engine', 'step', 'audience'] as const;
/** The slide's chart labels are at least this size (CSS px) at 1280×720 (issue 39). */
const MIN_LABEL_PX = 16;
/** The smallest label a view draws at scale 1 (px; present.css lifts the smaller ones to it). */
const SMALLEST_VIEW_LABEL_PX = 12;
/** The floor of the views' scale: their labels at MIN_LABEL_PX, their other text (18 px in
 * present.css) at 24 px. */
const MIN_STAGE_SCALE = MIN_LABEL_PX / SMALLEST_VIEW_LABEL_PX;
/** The views grow up to this on a big screen. */
const MAX_STAGE_SCALE = 3;
/** An audience window that has said nothing for this long is taken as closed. */
const AUDIENCE_SILENT_MS = 3000;

export function PresentPage({ lesson, query }: { lesson: Lesson; query: URLSearchParams }) {
  const steps = useMemo(() => presenterSteps(lesson), [lesson]);
  const initial = useMemo(() => {
    const controls = readControlValues(
      lesson.controls,
      query,
      'a parameter of this page',
      PRESENT_PARAMS,
    );
    const step = parseIntParam(query, 'step', { min: 1, max: steps.length, fallback: 1 });
    return {
      ...controls,
      step: step.value,
      errors: [...controls.errors, ...(step.error ? [step.error] : [])],
    };
  }, [lesson, query, steps]);
  const audience = query.get('audience') === '1';
  const preferSimulation = query.get('engine') === 'simulation';
  const [step, setStep] = useState(initial.step);
  const [help, setHelp] = useState(false);
  /** Where `s` found no sweep to run: said until the step or a control changes (a control can
   * turn a chart's sweep on, and the notice must not outlive the reason for it). */
  const [nothingToRun, setNothingToRun] = useState<{
    step: number;
    values: ControlValues;
  } | null>(null);
  const [audienceStatus, setAudienceStatus] = useState<{
    status: AudienceStatus | null;
    atMs: number;
  } | null>(null);
  const [nowMs, setNowMs] = useState(() => Date.now());
  /** The step's views fit this screen at the floor sizes (present.css, MIN_STAGE_SCALE). */
  const [stageFits, setStageFits] = useState(true);
  const stageFitsRef = useRef(stageFits);
  useLayoutEffect(() => {
    stageFitsRef.current = stageFits;
  });

  const urlFor = (
    values: Record<string, number | string>,
    s: number,
    extra: Record<string, string> = {},
  ) =>
    routeHash(`/present/${lesson.slug}`, {
      ...values,
      ...(preferSimulation ? { engine: 'simulation' } : {}),
      step: s,
      ...extra,
    });
  // The URL and the audience window follow the step and the values (the effect below).
  const session = useLessonSession(lesson, initial.values, preferSimulation, () => {});
  const channel = useRef<ReturnType<typeof openChannel> | null>(null);
  const values = session.values;
  /** The step and values on screen, for an audience window that says hello. */
  const shown = useRef({ step, values });
  const sessionRef = useRef(session);
  // A layout effect, so a key pressed once the page shows a state acts on that state: a plain
  // effect ran after the paint, and on a loaded machine space read the state before (running,
  // when the page already said paused) and paused again instead of resuming.
  useLayoutEffect(() => {
    sessionRef.current = session;
  });

  const audienceConnected =
    !audience && audienceStatus !== null && nowMs - audienceStatus.atMs < AUDIENCE_SILENT_MS;

  /** Runs a command here, or in the audience window when one is connected. */
  const command = (c: PresenterCommand) => {
    if (audienceConnected) return channel.current?.post({ type: 'command', command: c });
    const ran = runCommand(sessionRef.current, c);
    setNothingToRun(ran ? null : { step, values: sessionRef.current.values });
  };

  // The channel: the audience follows the presenter's step and values and runs its commands; the
  // presenter hears the audience's status.
  useEffect(() => {
    channel.current = openChannel(lesson.slug, (m: PresenterMessage) => {
      const s = sessionRef.current;
      if (audience) {
        if (m.type === 'state') {
          setStep(m.step);
          // All at once: one change() per value would each start from the same values, and only
          // the last would stay (a step's settings change several). Not while this window replays
          // a recording dropped on it: it shows the recording's settings, which the presenter's
          // window does not have, and a control change would end the replay (useLessonSession).
          const changes = s.replay.active ? null : changesFrom(s.values, m.values);
          if (changes) s.changeMany(changes);
        } else if (m.type === 'command' && !runCommand(s, m.command))
          channel.current?.post({ type: 'no-sweep', step: shown.current.step });
      } else if (m.type === 'status' || m.type === 'hello') {
        setAudienceStatus({ status: m.type === 'status' ? m.status : null, atMs: Date.now() });
        // A new audience window starts where the presenter is.
        if (m.type === 'hello') channel.current?.post({ type: 'state', ...shown.current });
      } else if (m.type === 'bye') setAudienceStatus(null);
      else if (m.type === 'no-sweep') setNothingToRun({ step: m.step, values: s.values });
    });
    if (audience) channel.current.post({ type: 'hello' });
    return () => {
      if (audience) channel.current?.post({ type: 'bye' });
      channel.current?.close();
      channel.current = null;
    };
  }, [lesson.slug, audience]);

  // The audience reports its run four times a second; the presenter re-checks the link as often.
  useEffect(() => {
    const timer = window.setInterval(() => {
      setNowMs(Date.now());
      if (!audience) return;
      const v = sessionRef.current.run.view;
      channel.current?.post({
        type: 'status',
        status: {
          state: v?.state ?? 'idle',
          completed: v?.summary?.completed ?? 0,
          items: v?.summary?.items ?? 0,
          itemsPerSec: v?.summary?.itemsPerSec ?? 0,
          engine: v?.engine ?? sessionRef.current.engine?.engine ?? 'simulation',
          fits: stageFitsRef.current,
        },
      });
    }, 250);
    return () => window.clearInterval(timer);
  }, [audience]);

  // Stepping to a step whose section sets controls (`::stage … ?id=v`) sets them, so the stage
  // shows what its prose talks about; only a change resets the run. Opening a step's URL does
  // not: its values are in the URL already.
  const goTo = (s: number) => {
    const target = Math.min(steps.length, Math.max(1, s));
    setStep(target);
    const cur = sessionRef.current;
    const changes = changesFrom(cur.values, steps[target - 1].settings ?? {});
    if (target !== step && changes) cur.changeMany(changes);
  };
  // A new step starts at its top: on a phone, where the steps scroll, the last one may have been
  // read far down (elsewhere the page never scrolls and this does nothing).
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [step]);
  useEffect(() => {
    shown.current = { step, values };
    if (audience) return;
    history.replaceState(null, '', presentUrl(lesson.slug, preferSimulation, values, step));
    channel.current?.post({ type: 'state', step, values });
  }, [audience, step, values, lesson.slug, preferSimulation]);

  const act = (a: PresenterAction) => {
    if (a === 'next') goTo(step + 1);
    else if (a === 'prev') goTo(step - 1);
    else if (a === 'run-pause' || a === 'sweep' || a === 'reset') command(a);
    else if (a === 'fullscreen') toggleFullscreen();
    else if (a === 'help') setHelp((h) => !h);
    else if (a === 'close') setHelp(false);
    else if (a === 'audience')
      window.open(
        urlFor(session.values, step, { audience: '1' }),
        `pipelab-audience-${lesson.slug}`,
      );
  };
  const actRef = useRef(act);
  useLayoutEffect(() => {
    actRef.current = act;
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement | null;
      const a = actionForKey({
        key: e.key,
        ctrlKey: e.ctrlKey,
        metaKey: e.metaKey,
        altKey: e.altKey,
        repeat: e.repeat,
        targetTag: t?.tagName,
        targetType: (t as HTMLInputElement | null)?.type,
      });
      if (!a) return;
      e.preventDefault();
      actRef.current(a);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const current = steps[step - 1];
  const views = stageViews(lesson, current);
  const shownControls = stageControls(current);

  return (
    <LessonContext.Provider value={session}>
      <main
        className={`present ${audience ? 'audience' : ''} ${audienceConnected ? 'notes-mode' : ''}`}
        data-testid="present"
        data-step={step}
        data-steps={steps.length}
        data-audience={audience ? 'window' : audienceConnected ? 'connected' : 'none'}
      >
        <header className="present-bar">
          <h1 className="present-title">
            <a href={lessonHash(`/lessons/${lesson.slug}`, values, preferSimulation)}>
              {lesson.number}. {lesson.title}
            </a>
          </h1>
          <span className="present-step" aria-live="polite">
            Step {step} of {steps.length}: {current.title}
          </span>
          <span className="present-buttons">
            <button onClick={() => act('prev')} disabled={step === 1} aria-label="previous step">
              ←
            </button>
            <button
              onClick={() => act('next')}
              disabled={step === steps.length}
              aria-label="next step"
            >
              →
            </button>
            {!audience && (
              <button onClick={() => act('audience')} data-testid="open-audience">
                Audience window
              </button>
            )}
            <button onClick={() => act('fullscreen')}>Full screen</button>
            {/* The link is to this window's view: the audience flag stays behind. */}
            <ShareButton values={values} pageParams={['engine', 'step']} />
            <button onClick={() => act('help')} aria-expanded={help} data-testid="keys-button">
              Keys ?
            </button>
          </span>
        </header>
        {initial.errors.map((e) => (
          <p key={e} role="alert" className="notice error">
            {e}
          </p>
        ))}
        {nothingToRun?.step === step && nothingToRun.values === values && (
          <p role="status" className="notice" data-testid="no-sweep">
            This step has no sweep: s sweeps the chart of a step that shows one.
          </p>
        )}
        {audienceConnected ? (
          <NotesView
            fits={audienceStatus?.status?.fits ?? true}
            notes={current.notes}
            html={current.html}
            next={steps[step]?.title ?? null}
            status={audienceStatus?.status ?? null}
            onCommand={command}
          />
        ) : (
          <div className="present-body">
            {/* The caption on a slide; on a phone the step's prose (present.css). */}
            <FitBox className="present-prose-box">
              <p className="present-caption" data-testid="present-caption">
                {current.title}
              </p>
              <Prose
                html={current.html}
                as="section"
                className="present-prose prose"
                testId="present-prose"
              />
            </FitBox>
            {!stageFits && !audience && <DoesNotFit />}
            {views[0] === 'experiment' && (
              <div className="present-stage present-controls" data-testid="present-controls">
                <ShownControls.Provider value={shownControls}>
                  <Slot name="experiment" />
                </ShownControls.Provider>
              </div>
            )}
            <FitBox
              className="present-stage present-views"
              minScale={MIN_STAGE_SCALE}
              reflows
              maxScale={MAX_STAGE_SCALE}
              onFits={setStageFits}
            >
              {views
                .filter((name) => name !== 'experiment')
                .map((name) => (
                  <Slot key={name} name={name} />
                ))}
            </FitBox>
          </div>
        )}
        <ReplayBar />
        {help && <KeysHelp onClose={() => setHelp(false)} />}
      </main>
    </LessonContext.Provider>
  );
}

/** The values in `wanted` that differ from `current`, or null when none do (a change resets the
 * run, so nothing is changed to what it already is). */
function changesFrom(current: ControlValues, wanted: ControlValues): ControlValues | null {
  const changed = Object.entries(wanted).filter(([id, v]) => current[id] !== v);
  return changed.length > 0 ? Object.fromEntries(changed) : null;
}

/** The presenter's URL for a step and control values (a permalink to that moment of the talk). */
function presentUrl(
  slug: string,
  preferSimulation: boolean,
  values: ControlValues,
  step: number,
  extra: Record<string, string> = {},
): string {
  return lessonHash(`/present/${slug}`, values, preferSimulation, { step, ...extra });
}

/** Runs a presenter command on this window's lesson session; false when it has nothing to run
 * (a sweep on a step whose views offer none). */
function runCommand(s: ReturnType<typeof useLessonSession>, c: PresenterCommand): boolean {
  const state = s.run.view?.state;
  if (c === 'run-pause') {
    if (state === 'running') s.run.pause();
    else if (state === 'paused') s.run.resume();
    else if (s.spec && s.engine) s.run.start(s.spec, s.engine.engine);
  } else if (c === 'sweep') return s.stageSweeps.run();
  else if (c === 'reset') s.reset();
  else if (c === 'stop') s.run.stop();
  return true;
}

function toggleFullscreen() {
  if (document.fullscreenElement) void document.exitFullscreen();
  else void document.documentElement.requestFullscreen?.().catch(() => {});
}

/** One of the step's views, in a slot named for it. */
function Slot({ name }: { name: ComponentName }) {
  const View = LESSON_COMPONENTS[name];
  return (
    <div className={`slot slot-${name}`} data-component={name}>
      <View />
    </div>
  );
}

/** Said to the presenter (never to the audience window) when the step's views are cut. */
function DoesNotFit() {
  return (
    <p role="status" className="notice present-does-not-fit" data-testid="does-not-fit">
      This step&apos;s views do not fit the screen at readable sizes (24 px text, 16 px chart
      labels): their bottom is cut off. A larger screen or full screen (f) shows them whole.
    </p>
  );
}

/** The presenter's window while the audience window runs the experiment. */
function NotesView(p: {
  /** The step's views fit the audience's screen at the floor sizes. */
  fits: boolean;
  notes: string | null;
  /** The step's prose: shown as the notes when the lesson wrote none for this step. */
  html: string;
  next: string | null;
  status: AudienceStatus | null;
  onCommand: (c: PresenterCommand) => void;
}) {
  const { lesson, values, change, spec } = useLesson();
  const noun = itemNoun(spec);
  return (
    <div className="present-notes" data-testid="present-notes">
      <section className="notes-text">
        <h2>Notes</h2>
        {p.notes === null ? (
          <Prose html={p.html} />
        ) : (
          p.notes.split('\n\n').map((para, i) => <p key={i}>{para}</p>)
        )}
        {p.next && <p className="notes-next">Next: {p.next}</p>}
      </section>
      <section className="notes-side">
        <p className="notes-status" data-testid="audience-status">
          {p.status
            ? `Audience window: ${p.status.state}${p.status.items ? `, ${p.status.completed} / ${p.status.items} ${noun}` : ''}${p.status.itemsPerSec ? `, ${Math.round(p.status.itemsPerSec)} ${noun}/s (${p.status.engine === 'threads' ? 'measured' : 'simulated'})` : ''}`
            : 'Audience window: connected'}
        </p>
        {!p.fits && <DoesNotFit />}
        <ControlsPanel controls={lesson.controls} values={values} onChange={change} />
        <div className="buttons">
          <button onClick={() => p.onCommand('run-pause')}>Run / pause (space)</button>
          <button onClick={() => p.onCommand('sweep')}>Sweep (s)</button>
          <button onClick={() => p.onCommand('reset')}>Reset (r)</button>
        </div>
      </section>
    </div>
  );
}

/** The key list, a modal dialog: Tab stays inside it (its one control is Close; before, Tab
 * walked to the title link behind it and Enter left the talk), and on closing, focus goes back
 * to where it was. */
function KeysHelp({ onClose }: { onClose: () => void }) {
  // Read while rendering, before Close takes the focus. Close is focused by the effect, not by
  // autoFocus: under StrictMode (development) the effect runs, cleans up (focus back) and runs
  // again, and only the effect takes the focus again.
  const [before] = useState(() => document.activeElement);
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    close.current?.focus();
    return () => {
      if (before instanceof HTMLElement && before !== document.body && before.isConnected)
        before.focus();
    };
  }, [before]);
  return (
    <div
      className="keys-help"
      role="dialog"
      aria-modal="true"
      aria-label="Presenter keys"
      data-testid="keys-help"
      onKeyDown={(e) => {
        if (e.key === 'Tab') e.preventDefault();
      }}
    >
      <h2>Keys</h2>
      <dl>
        {PRESENTER_KEYS.map((k) => (
          <div key={k.action}>
            <dt>{k.keys.map((key) => (key === ' ' ? 'space' : key)).join(' or ')}</dt>
            <dd>{k.label}</dd>
          </div>
        ))}
      </dl>
      <button ref={close} onClick={onClose}>
        Close (Esc)
      </button>
    </div>
  );
}
