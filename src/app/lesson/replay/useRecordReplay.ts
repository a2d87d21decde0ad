// Recording and replaying on a lesson page: Record starts a run with a recorder watching it;
// a finished recording can be replayed, saved, or exported (trace, run CSV); a saved one is opened
// again by the file picker or by dropping it anywhere on the page. Opening checks the file and
// that it fits this lesson, then ends whatever runs (a live run, a sweep: any plan) before the
// replay starts. The recorded run is a plan of one live run, with the recorder watching it.
import { useEffect, useRef, useState } from 'react';
import { visitorCores } from '../../../engine/isolation';
import type { PipelineRun } from '../../../engine/pipeline/pipelineRun';
import type { ControlValues } from '../../../lessons/controls';
import type { Lesson } from '../../../lessons/loadLessons';
import { Recorder } from '../../../replay/recorder';
import type { Recording, RunEnd } from '../../../replay/recording';
import { ReplayRun } from '../../../replay/replayRun';
import type { ExperimentSpec } from '../../../spec/experimentSpec';
import { kindOf } from '../../../views/viewHelpers';
import type { ChooseEngineResult } from '../../../engine/pipeline/chooseEngine';
import { download, exportName } from '../../download';
import { newLiveTracker } from '../../../runtimes';
import { WINDOW_US, type LessonRun } from '../useLessonRun';
import { recordingFits, type Refusal } from './recordingFits';

/** Reading and writing recording files, and the trace export: loaded when the visitor opens, saves
 * or exports one, not with every lesson page (bench/load: the lesson's critical path). */
const recordingFile = () => import('../../../replay/recordingFile');

export type LessonReplay = ReturnType<typeof useRecordReplay>;

export interface ReplayNotice {
  kind: 'error' | 'note';
  message: string;
  link?: Refusal['link'];
}

const runEnd = (run: PipelineRun): RunEnd =>
  run.state() === 'done' ? 'done' : run.state() === 'error' ? 'error' : 'stopped';

export function useRecordReplay(p: {
  lesson: Lesson;
  values: ControlValues;
  /** Sets every control (and the URL) at once. */
  setValues: (values: ControlValues) => void;
  spec: ExperimentSpec | null;
  engine: ChooseEngineResult | null;
  run: LessonRun;
}) {
  const { lesson, values, setValues, spec, engine, run } = p;
  /** The last recording made or opened here. */
  const [recording, setRecording] = useState<Recording | null>(null);
  /** The recorder of the run in flight, while it records. */
  const [recorder, setRecorder] = useState<Recorder | null>(null);
  const [notice, setNotice] = useState<ReplayNotice | null>(null);
  const [dragging, setDragging] = useState(false);

  const record = () => {
    if (!spec || !engine) return;
    const r = new Recorder({
      recordedAt: new Date().toISOString(),
      origin: { userAgent: navigator.userAgent, cores: visitorCores() },
      engine: engine.engine,
      lesson: { slug: lesson.slug, values },
      spec,
      workers: spec.threads,
    });
    setNotice(null);
    setRecorder(r);
    run.start(spec, engine.engine, {
      frame: (f, nowUs) => r.frame(f, nowUs),
      end: (ended) => {
        setRecording(r.finish(runEnd(ended), ended.summary(), ended.nowUs()));
        setRecorder((current) => (current === r ? null : current));
      },
    });
  };

  /** Replays `rec` here: ends any plan in flight first, sets the controls it was made at.
   * False (and a notice saying why) when it does not fit this lesson. */
  const replay = (rec: Recording, playing: boolean): boolean => {
    const fits = recordingFits(rec, lesson);
    if ('refusal' in fits) {
      setNotice({ kind: 'error', ...fits.refusal });
      return false;
    }
    // Only when they differ: a page without controls keeps its own query (#/experiment?spec=…).
    if (JSON.stringify(fits.values) !== JSON.stringify(values)) setValues(fits.values);
    setNotice(null);
    const shape = () => newLiveTracker(rec.spec, rec.workers, WINDOW_US);
    run.replay(new ReplayRun(rec, shape, { playing }));
    return true;
  };

  /** Reads a file the visitor chose or dropped; a bad one is named and nothing else changes. */
  const open = async (file: File) => {
    try {
      const { checkFileSize, parseRecording } = await recordingFile();
      checkFileSize(file.size);
      const rec = parseRecording(await file.text());
      // Opened for a talk: it waits at the start for the speaker's ▶. It becomes the recording
      // shown after the one its start interrupted (if any) is finished.
      if (replay(rec, false)) setRecording(rec);
    } catch (e) {
      setNotice({ kind: 'error', message: `${file.name}: ${(e as Error).message}` });
    }
  };
  const openLatest = useRef(open);
  useEffect(() => {
    openLatest.current = open;
  });

  // Dropping a file anywhere on the lesson page opens it.
  useEffect(() => {
    const carriesFiles = (e: DragEvent) => !!e.dataTransfer?.types.includes('Files');
    const over = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      e.preventDefault();
      setDragging(true);
    };
    const leave = (e: DragEvent) => {
      if (e.relatedTarget === null) setDragging(false);
    };
    const drop = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      e.preventDefault();
      setDragging(false);
      const file = e.dataTransfer?.files[0];
      if (file) void openLatest.current(file);
    };
    window.addEventListener('dragenter', over);
    window.addEventListener('dragover', over);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', over);
      window.removeEventListener('dragover', over);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
    };
  }, []);

  const fileOf = (rec: Recording, what: string | null, ext: string, type: string, data: string) =>
    download(
      exportName([rec.lesson?.slug, kindOf(rec.engine), what], rec.recordedAt, ext),
      data,
      type,
    );

  return {
    recording,
    recorder,
    notice,
    dragging,
    /** The replay in flight, or null. */
    active: run.view?.replay ?? null,
    record,
    replay: (rec: Recording) => void replay(rec, true),
    open,
    exit: run.stop,
    save: (rec: Recording) =>
      void recordingFile().then(({ recordingToJson }) =>
        fileOf(rec, null, 'json', 'application/json', recordingToJson(rec)),
      ),
    exportTrace: (rec: Recording) =>
      void import('../../../export/traceEvents').then(({ recordingToTrace }) =>
        fileOf(rec, 'trace', 'json', 'application/json', JSON.stringify(recordingToTrace(rec))),
      ),
    exportRunCsv: (rec: Recording) =>
      void import('../../../export/csv').then(({ runCsv }) =>
        fileOf(rec, 'run', 'csv', 'text/csv', runCsv(rec)),
      ),
  };
}
