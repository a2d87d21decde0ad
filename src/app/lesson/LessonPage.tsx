// A lesson: its prose (rendered at build time) with the registered components placed where the
// lesson file says (`::name`, see registry.ts), all sharing one lesson session (useLessonSession):
// controls in the URL, one run in flight, the model chart's sweep, the measured paper values.
// KaTeX's stylesheet comes with a lesson whose prose has formulas (its data module, vitePlugin.ts).
import { useMemo, useRef } from 'react';
import type { Lesson } from '../../lessons/loadLessons';
import { lessonHash, replaceQuery, shellHref } from '../route';
import { useReducedMotion } from '../useReducedMotion';
import { usePresentKey } from './usePresentKey';
import { useRunInSight } from './useRunInSight';
import { ClaimsList } from './ClaimsList';
import { LessonBlocks } from './LessonBlocks';
import { LessonNav } from './LessonNav';
import { LessonContext } from './lessonContext';
import { LESSON_PAGE_PARAMS, readControlValues } from './lessonControls';
import { ReplayBar } from './replay/ReplayBar';
import { ShareButton } from './ShareButton';
import { useLessonSession } from './useLessonSession';

/** What the previous and next links need of a lesson (the route has only the lessons' index). */
type LessonLink = Pick<Lesson, 'slug' | 'number' | 'title'>;

export function LessonPage({
  lesson,
  query,
  pageParams,
  neighbours,
}: {
  lesson: Lesson;
  /** The lessons before and after this one, linked at its end (none for an ad-hoc experiment). */
  neighbours?: { prev: LessonLink | null; next: LessonLink | null };
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
  const preferSimulation = query.get('engine') === 'simulation';
  const session = useLessonSession(lesson, initial.values, preferSimulation, (values) =>
    replaceQuery(`/lessons/${lesson.slug}`, {
      ...values,
      ...(preferSimulation ? { engine: 'simulation' } : {}),
    }),
  );

  const presentHref = lessonHash(`/present/${lesson.slug}`, session.values, preferSimulation);
  usePresentKey(lesson.number > 0 ? presentHref : null);
  const main = useRef<HTMLElement>(null);
  useRunInSight(main, useReducedMotion());

  return (
    <LessonContext.Provider value={session}>
      <main className="page lesson" ref={main}>
        <p className="crumbs">
          <a href={shellHref('/')}>PipeLab</a> ›{' '}
          {lesson.number > 0 ? `Lesson ${lesson.number}` : 'Experiment'}
          <ShareButton values={session.values} pageParams={pageParams ?? LESSON_PAGE_PARAMS} />
        </p>
        <h1>{lesson.title}</h1>
        {lesson.claims.length > 0 && (
          // What a ✓ means, said once: the claims hold for the models and the twin, which a run on
          // the visitor's threads measured on a busy machine need not match.
          <p className="hint claims-legend" data-testid="claims-legend">
            Sentences marked <span className="claim-mark">✓</span> were checked when this page was
            built, against the models or the twin (the seeded simulation of these runtimes) at the
            settings they name; point at one or reach it with Tab, or open the list at the end of
            the page, for its numbers. Once you move the controls, a sentence checked at the
            defaults is marked <span className="claim-mark other">✓ at the defaults</span>: it may
            not hold at yours. A run on your threads can come out differently, most of all while
            other programs keep your cores busy.
          </p>
        )}
        {initial.errors.map((e) => (
          <p key={e} role="alert" className="notice error">
            {e}
          </p>
        ))}
        <LessonBlocks blocks={lesson.blocks} />
        <ReplayBar />
        <ClaimsList claims={lesson.claims} />
        {neighbours && <LessonNav {...neighbours} />}
      </main>
    </LessonContext.Provider>
  );
}
