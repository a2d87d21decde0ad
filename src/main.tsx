// Entry point: starts fetching the route's page, then mounts the app.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { watchChartOverflow } from './app/chartOverflow';
import { GlossaryTip } from './app/glossary/GlossaryTip';
import { startRoute } from './app/pages';
import { parseRoute } from './app/route';
import { startServiceWorker } from './app/serviceWorker';
import './app/styles.css';
import 'virtual:lesson-styles.css';

// The page's chunks first: they are what the visitor waits for (pages.tsx).
startRoute(parseRoute(location.hash).path);
if (import.meta.env.PROD) startServiceWorker();
watchChartOverflow(document.body);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
    <GlossaryTip />
  </StrictMode>,
);
