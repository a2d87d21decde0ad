// The app shell: header, and the page for the current hash route.
import lessons from 'virtual:lessons';
import { CountingPage } from './counting/CountingPage';
import { LessonPage } from './lesson/LessonPage';
import { adHocLesson } from '../lessons/adHocLesson';
import { Home } from './Home';
import { useRoute } from './route';

export function App() {
  const route = useRoute();
  let page;
  if (route.path === '/') page = <Home />;
  else if (route.path === '/threads') page = <CountingPage query={route.query} />;
  else if (route.path === '/experiment') page = <AdHocExperiment query={route.query} />;
  else if (lessonOf(route.path)) {
    const lesson = lessonOf(route.path)!;
    page = <LessonPage key={lesson.slug} lesson={lesson} query={route.query} />;
  } else
    page = (
      <main className="page">
        <p role="alert" className="notice error">
          No page at <code>{route.path}</code>. <a href="#/">Back to the start</a>.
        </p>
      </main>
    );
  return (
    <>
      <header className="top">
        <a href="#/" className="brand">
          PipeLab
        </a>
        <span className="tagline">pipeline parallelism on real threads, next to the models</span>
      </header>
      {page}
    </>
  );
}

function lessonOf(path: string) {
  const m = /^\/lessons\/([a-z0-9-]+)$/.exec(path);
  return m ? lessons.find((l) => l.slug === m[1]) : undefined;
}

/** #/experiment?spec=…: a bad spec is named on the page instead of breaking it. */
function AdHocExperiment({ query }: { query: URLSearchParams }) {
  let lesson;
  try {
    lesson = adHocLesson(query.get('spec'));
  } catch (e) {
    return (
      <main className="page">
        <p role="alert" className="notice error">
          {(e as Error).message}
        </p>
      </main>
    );
  }
  const rest = new URLSearchParams(query);
  rest.delete('spec');
  return <LessonPage key={query.get('spec')} lesson={lesson} query={rest} />;
}
