// The app shell: header, and the page for the current hash route.
import { CountingPage } from './counting/CountingPage';
import { Home } from './Home';
import { useRoute } from './route';

export function App() {
  const route = useRoute();
  let page;
  if (route.path === '/') page = <Home />;
  else if (route.path === '/threads') page = <CountingPage query={route.query} />;
  else
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
