// Entry point: mounts the app.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { watchChartOverflow } from './app/chartOverflow';
import { GlossaryTip } from './app/glossary/GlossaryTip';
import { startServiceWorker } from './app/serviceWorker';
import './app/styles.css';
import 'virtual:lesson-styles.css';

if (import.meta.env.PROD) startServiceWorker();
watchChartOverflow(document.body);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
    <GlossaryTip />
  </StrictMode>,
);
