// The app shell: header, the dev server's lesson problems, and the page for the current hash route
// (each page's code loads with its route: pages.tsx).
import lessons, { lessonErrors } from 'virtual:lessons';
import { Home } from './Home';
import {
  AdHocRoute,
  CountingRoute,
  LessonRoute,
  PageLoading,
  PapersRoute,
  PresentRoute,
  RouteFrame,
} from './pages';
import { unknownParamErrors } from './queryParams';
import { EmbedBar, useReportHeight } from './embed';
import { lessonNeighbours, pageTitle } from './pageTitle';
import { pageQuery, SHELL_PARAMS, shellHref, shellQuery, useRoute } from './route';
import { useEffect } from 'react';

/** The title the page was served with: the start page's. */
const SERVED_TITLE = typeof document === 'undefined' ? 'PipeLab' : document.title;

export function App() {
  const route = useRoute();
  useEffect(() => {
    document.title = pageTitle(route.path, lessons, SERVED_TITLE);
  }, [route.path]);
  const embedParam = route.query.get('embed');
  const embedded = embedParam === '1';
  useReportHeight(embedded);
  const shellErrors = [
    ...(embedParam !== null && embedParam !== '1'
      ? [
          `embed=${embedParam} is not one of 1 (embed=1 shows the page without site chrome, for an iframe)`,
        ]
      : []),
    // A repeated shell key is said as a page's own repeated keys are.
    ...unknownParamErrors(shellQuery(route.query), SHELL_PARAMS),
  ];
  const query = pageQuery(route.query);
  let page;
  if (route.path === '/') page = <Home errors={unknownParamErrors(query, [])} />;
  else if (route.path === '/threads') page = <CountingRoute key={route.visit} query={query} />;
  else if (route.path === '/experiment') page = <AdHocRoute key={route.visit} query={query} />;
  else if (route.path === '/papers') page = <PapersRoute errors={unknownParamErrors(query, [])} />;
  else if (lessonOf(route.path)) {
    const lesson = lessonOf(route.path)!;
    page = (
      <LessonRoute
        key={`${lesson.slug}@${route.visit}`}
        entry={lesson}
        query={query}
        neighbours={lessonNeighbours(lessons, lesson.slug)}
      />
    );
  } else if (presentedLesson(route.path)) {
    const lesson = presentedLesson(route.path)!;
    return (
      <RouteFrame fallback={<PageLoading />}>
        <PresentRoute key={`${lesson.slug}@${route.visit}`} entry={lesson} query={query} />
      </RouteFrame>
    );
  } else page = <NoSuchPage path={route.path} />;
  const loading = lessonOf(route.path);
  return (
    <div className={embedded ? 'embedded' : undefined}>
      {embedded ? (
        <EmbedBar />
      ) : (
        <header className="top">
          <a href="#/" className="brand">
            PipeLab
          </a>
          <span className="tagline">pipeline parallelism on real threads, next to the models</span>
        </header>
      )}
      {shellErrors.map((e) => (
        <p key={e} role="alert" className="notice error page">
          {e}
        </p>
      ))}
      {lessonErrors.length > 0 && (
        <div className="page" data-testid="lesson-errors">
          {lessonErrors.map((e) => (
            <p key={e} role="alert" className="notice error">
              This lesson file does not validate, so it is left out until it does: {e}
            </p>
          ))}
        </div>
      )}
      {/* Keyed by the route: another page's frame starts without the last one's error. */}
      <RouteFrame key={route.path} fallback={<PageLoading lesson={loading} />}>
        {page}
      </RouteFrame>
    </div>
  );
}

function lessonOf(path: string) {
  const m = /^\/lessons\/([a-z0-9-]+)$/.exec(path);
  return m ? lessons.find((l) => l.slug === m[1]) : undefined;
}

/** #/present/<slug>: a lesson in presenter mode (no site chrome). */
function presentedLesson(path: string) {
  const m = /^\/present\/([a-z0-9-]+)$/.exec(path);
  return m ? lessons.find((l) => l.slug === m[1]) : undefined;
}

/** An unknown route names itself and offers every page there is. */
function NoSuchPage({ path }: { path: string }) {
  return (
    <main className="page" data-testid="no-such-page">
      <h1>No such page</h1>
      <p role="alert" className="notice error">
        No such page: <code>#{path}</code>. These are the pages there are:
      </p>
      <ul className="lesson-list">
        {lessons.map((l) => (
          <li key={l.slug}>
            <a href={shellHref(`/lessons/${l.slug}`)}>
              {l.number}. {l.title}
            </a>
          </li>
        ))}
        <li>
          <a href={shellHref('/threads')}>Warm-up: counting threads</a>
        </li>
        <li>
          <a href={shellHref('/papers')}>What the papers found, and what we find</a>
        </li>
        <li>
          <a href={shellHref('/')}>The start page</a>
        </li>
      </ul>
    </main>
  );
}
