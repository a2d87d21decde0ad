// #/experiment?spec=…: an experiment given by its spec alone, shown with a lesson's panel and views
// and no prose; a bad spec is named on the page instead of breaking it. A chunk of its own (pages.tsx).
import { adHocLesson } from '../lessons/adHocLesson';
import { LessonPage } from './lesson/LessonPage';
import { shellHref } from './route';

/** What #/experiment takes besides nothing else: the spec itself and the engine choice. */
const AD_HOC_PARAMS = ['spec', 'engine'] as const;

/** #/experiment?spec=…: a bad spec is named on the page instead of breaking it. */
export function AdHocExperiment({ query }: { query: URLSearchParams }) {
  let lesson;
  try {
    lesson = adHocLesson(query.get('spec'));
  } catch (e) {
    return (
      <main className="page">
        <p className="crumbs">
          <a href={shellHref('/')}>PipeLab</a> › Experiment
        </p>
        <p role="alert" className="notice error">
          {(e as Error).message}
        </p>
      </main>
    );
  }
  return <LessonPage lesson={lesson} query={query} pageParams={AD_HOC_PARAMS} />;
}
