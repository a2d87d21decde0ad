// The pages the app shell routes to, each a chunk of its own loaded when its route is opened, so
// a visitor's first page carries only its own code: a lesson route fetches the lesson page, the
// lesson's own data (virtual:lesson/<slug>) and the components it places all at once (no chain of
// requests, each waiting on the last); the presenter, the papers page, the warm-up and the ad-hoc
// experiment load only when opened. While a route loads, its frame shows what it already knows
// (a lesson's title); a chunk that cannot be fetched (offline before the site was ever cached, a
// deployment replaced mid-visit) says so with a way to retry. bench/load/criticalPath.mjs sizes a
// lesson route from these same modules.
import { Component, lazy, Suspense, use, type ReactNode } from 'react';
import lessons, { lessonLoaders } from 'virtual:lessons';
import type { LessonEntry } from '../lessons/lessonEntry';
import type { Lesson } from '../lessons/loadLessons';
import { preloadComponents } from './lesson/registry';
import { shellHref } from './route';

/** A failed fetch of a page's code or data (not an error of the page itself). */
class RouteLoadError extends Error {}

const started = new Map<string, Promise<unknown>>();

/** One load per key for the page's lifetime (React's use() needs the same promise on every
 * render); a failed one is forgotten, so retrying fetches again. */
function once<T>(key: string, load: () => Promise<T>): Promise<T> {
  let promise = started.get(key) as Promise<T> | undefined;
  if (!promise) {
    promise = load().catch((e: unknown) => {
      started.delete(key);
      throw new RouteLoadError((e as Error).message ?? String(e), { cause: e });
    });
    started.set(key, promise);
  }
  return promise;
}

const lessonData = (slug: string) =>
  once(`data:${slug}`, () => lessonLoaders[slug]().then((m) => m.default));

/** A lesson page draws once its code, its data and the components down to its experiment panel
 * are here; the components further down are fetched only then, so they never share the phone's
 * bandwidth with what the first screen needs (each shows as soon as it arrives). */
function lessonRoute(entry: LessonEntry) {
  return once(`lesson:${entry.slug}`, async () => {
    const [page, lesson] = await Promise.all([
      import('./lesson/LessonPage'),
      lessonData(entry.slug),
      preloadComponents(entry.critical),
    ]);
    // A failure here is the slot's to retry when it draws.
    preloadComponents(entry.components).catch(() => {});
    return { LessonPage: page.LessonPage, lesson };
  });
}

function presentRoute(entry: LessonEntry) {
  return once(`present:${entry.slug}`, async () => {
    const [page, lesson] = await Promise.all([
      import('./present/PresentPage'),
      lessonData(entry.slug),
      preloadComponents(entry.components),
    ]);
    return { PresentPage: page.PresentPage, lesson };
  });
}

const papersRoute = () =>
  once('papers', async () => {
    const [page, all] = await Promise.all([
      import('./papers/PapersPage'),
      Promise.all(lessons.map((l) => lessonData(l.slug))),
    ]);
    return { PapersPage: page.PapersPage, lessons: all };
  });

/**
 * Starts loading the page a hash names, before React has drawn anything: main.tsx calls it while
 * the entry is still being set up, so the route's chunks are on the wire ~1 s sooner on a slow
 * phone than when the first render asks for them. Unknown routes load nothing here.
 */
export function startRoute(path: string): void {
  const lesson = /^\/(lessons|present)\/([a-z0-9-]+)$/.exec(path);
  const entry = lesson && lessons.find((l) => l.slug === lesson[2]);
  const started = entry
    ? lesson[1] === 'lessons'
      ? lessonRoute(entry)
      : presentRoute(entry)
    : null;
  // The page's own render reports a failure (RouteFrame); here it would be unhandled.
  started?.catch(() => {});
}

export function LessonRoute({
  entry,
  query,
  neighbours,
}: {
  entry: LessonEntry;
  query: URLSearchParams;
  neighbours?: { prev: LessonEntry | null; next: LessonEntry | null };
}) {
  const { LessonPage, lesson } = use(lessonRoute(entry));
  return <LessonPage lesson={lesson} query={query} neighbours={neighbours} />;
}

export function PresentRoute({ entry, query }: { entry: LessonEntry; query: URLSearchParams }) {
  const { PresentPage, lesson } = use(presentRoute(entry));
  return <PresentPage lesson={lesson} query={query} />;
}

export function PapersRoute({ errors }: { errors: string[] }) {
  const { PapersPage, lessons: all } = use(papersRoute());
  return <PapersPage errors={errors} lessons={all} />;
}

export const CountingRoute = lazy(() =>
  once('counting', () => import('./counting/CountingPage')).then((m) => ({
    default: m.CountingPage,
  })),
);

export const AdHocRoute = lazy(() =>
  once('experiment', () => import('./AdHocExperiment')).then((m) => ({
    default: m.AdHocExperiment,
  })),
);

/** What a page shows while its code loads: for a lesson, the crumbs and title it will show. */
export function PageLoading({ lesson }: { lesson?: Pick<Lesson, 'number' | 'title'> }) {
  return (
    <main className={lesson ? 'page lesson' : 'page'} aria-busy="true" data-testid="page-loading">
      {lesson && (
        <>
          <p className="crumbs">
            <a href={shellHref('/')}>PipeLab</a> › Lesson {lesson.number}
          </p>
          <h1>{lesson.title}</h1>
        </>
      )}
    </main>
  );
}

/** A route's frame: its stand-in while it loads, and a message if its code cannot be fetched.
 * Any other error is the page's own and is thrown on, as it would be without this frame. */
export class RouteFrame extends Component<
  { fallback: ReactNode; children: ReactNode },
  { error: unknown }
> {
  state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  render() {
    const { error } = this.state;
    if (error && !(error instanceof RouteLoadError)) throw error;
    if (error instanceof RouteLoadError)
      return (
        <main className="page">
          <p role="alert" className="notice error" data-testid="page-load-error">
            This page could not be loaded ({error.message}). Check the connection, then{' '}
            <button type="button" onClick={() => this.setState({ error: null })}>
              try again
            </button>
            .
          </p>
        </main>
      );
    return <Suspense fallback={this.props.fallback}>{this.props.children}</Suspense>;
  }
}
