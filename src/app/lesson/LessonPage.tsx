// A lesson: its prose (rendered at build time) with the registered components placed where the
// lesson file says (`::name`, see registry.ts), all sharing one experiment whose controls live in
// the URL, one run in flight, the model chart's sweep and the lesson's measured paper values.
import 'katex/dist/katex.min.css';
import { useCallback, useMemo, useState } from 'react';
import { canUseThreads, visitorCores } from '../../engine/isolation';
import { chooseEngine, type EngineContext } from '../../engine/pipeline/chooseEngine';
import { applyControls, type ControlValues } from '../../lessons/controls';
import type { Lesson } from '../../lessons/loadLessons';
import { replaceQuery } from '../route';
import { LessonContext, type LessonContextValue } from './lessonContext';
import { readControlValues } from './lessonControls';
import { LESSON_COMPONENTS } from './registry';
import { useLessonRun } from './useLessonRun';
import { useSweep } from './useSweep';

export function LessonPage({
  lesson,
  query,
  pageParams,
}: {
  lesson: Lesson;
  query: URLSearchParams;
  /** The page's own parameters besides the controls (default: a lesson page's). */
  pageParams?: readonly string[];
}) {
  const initial = useMemo(
    () =>
      pageParams
        ? readControlValues(lesson.controls, query, 'a parameter of this page', pageParams)
        : readControlValues(lesson.controls, query),
    [lesson, query, pageParams],
  );
  const [values, setValues] = useState<ControlValues>(initial.values);
  const [measured, setMeasured] = useState<Record<string, number>>({});
  const preferSimulation = query.get('engine') === 'simulation';
  const engineContext: EngineContext = useMemo(
    () => ({ isolated: canUseThreads(), cores: visitorCores(), preferSimulation }),
    [preferSimulation],
  );

  const { spec, specError } = useMemo(() => {
    try {
      return {
        spec: applyControls(lesson.experimentSource, lesson.controls, values),
        specError: null,
      };
    } catch (e) {
      return { spec: null, specError: (e as Error).message };
    }
  }, [lesson, values]);
  const engine = useMemo(() => spec && chooseEngine(spec, engineContext), [spec, engineContext]);
  const sweep = useSweep(lesson, values, engineContext);
  const run = useLessonRun(sweep.addRunPoint);

  const change = (id: string, value: number | string) => {
    const next = { ...values, [id]: value };
    setValues(next);
    replaceQuery(`/lessons/${lesson.slug}`, {
      ...next,
      ...(preferSimulation ? { engine: 'simulation' } : {}),
    });
  };
  const reportMeasured = useCallback(
    (rowId: string, value: number) => setMeasured((m) => ({ ...m, [rowId]: value })),
    [],
  );

  const context: LessonContextValue = {
    lesson,
    values,
    change,
    spec,
    specError,
    engine,
    run,
    sweep,
    measured,
    reportMeasured,
  };

  return (
    <LessonContext.Provider value={context}>
      <main className="page lesson">
        <p className="crumbs">
          <a href="#/">PipeLab</a> › {lesson.number > 0 ? `Lesson ${lesson.number}` : 'Experiment'}
        </p>
        <h1>{lesson.title}</h1>
        {initial.errors.map((e) => (
          <p key={e} role="alert" className="notice error">
            {e}
          </p>
        ))}
        {lesson.blocks.map((b, i) => {
          if (b.kind === 'html')
            return <div key={i} className="prose" dangerouslySetInnerHTML={{ __html: b.html }} />;
          const Component = LESSON_COMPONENTS[b.name];
          return (
            <div key={i} className={`slot slot-${b.name}`} data-component={b.name}>
              <Component />
            </div>
          );
        })}
      </main>
    </LessonContext.Provider>
  );
}
