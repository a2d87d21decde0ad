// Vite plugin: `import lessons, { lessonErrors } from 'virtual:lessons'` gives the validated lessons
// of lessons/, parsed when the module loads. A bad lesson fails `vite build` naming file and field;
// the dev server instead serves the good lessons with the messages (the page shows them) and
// reloads the page whenever a lesson file, or the code that checks lessons, changes.
//
// Vite loads this file with its config, so it imports only Node and Vite: the lesson loader and
// everything it uses (spec, models, twin) are TypeScript modules loaded through Vite's module
// runner (runnerImport), which also tells which files they came from, so edits to them reload too.
import { dirname, resolve } from 'node:path';
import { runnerImport, type Plugin } from 'vite';
import { inlineStyleSheet } from './inlineStyles.ts';
import type { loadLessonsReport } from './loadLessons.ts';

const ID = 'virtual:lessons';
const RESOLVED = `\0${ID}`;
/** The prose's inline styles as classes (inlineStyles.ts): a strict CSP allows no style="". */
const STYLES_ID = 'virtual:lesson-styles.css';
const STYLES_RESOLVED = `\0${STYLES_ID}`;

type Report = ReturnType<typeof loadLessonsReport>;

/**
 * @param root the project root (where src/ is)
 * @param lessonsDir the lesson folder (default `<root>/lessons`; the dev-server e2e test points it
 *   at a copy it edits); messages name files relative to its parent, as `lessons/01-x.md`.
 */
export function lessonsPlugin(root: string, lessonsDir?: string): Plugin {
  const dir = resolve(lessonsDir ?? resolve(root, 'lessons'));
  let building = false;
  let logError = (message: string) => console.error(message);
  /** Files the lesson checks were loaded from: editing one re-checks the lessons. */
  let checkerFiles = new Set<string>();

  /** One check of the lessons for both modules, until a file changes. */
  let report: Promise<Report> | null = null;
  function load(): Promise<Report> {
    report ??= (async () => {
      const { module, dependencies } = await runnerImport<typeof import('./loadLessons.ts')>(
        resolve(root, 'src/lessons/loadLessons.ts'),
        { configFile: false, root, logLevel: 'silent' },
      );
      checkerFiles = new Set(dependencies.map((f) => resolve(root, f)));
      return module.loadLessonsReport(dir, dirname(dir));
    })();
    return report;
  }

  return {
    name: 'pipelab-lessons',
    configResolved(config) {
      building = config.command === 'build';
      logError = (message) => config.logger.error(message, { timestamp: true });
    },
    resolveId: (id) => (id === ID ? RESOLVED : id === STYLES_ID ? STYLES_RESOLVED : null),
    async load(id) {
      if (id === STYLES_RESOLVED)
        return inlineStyleSheet(Object.assign({}, ...(await load()).lessons.map((l) => l.styles)));
      if (id !== RESOLVED) return null;
      const { lessons, errors } = await load();
      if (building && errors.length) this.error(errors.join('\n'));
      for (const e of errors) logError(`[lessons] ${e}`);
      return `export default ${JSON.stringify(lessons)};\nexport const lessonErrors = ${JSON.stringify(errors)};`;
    },
    configureServer(server) {
      server.watcher.add(dir);
      const onFile = (file: string) => {
        const lessonFile = file.startsWith(dir) && file.endsWith('.md');
        if (!lessonFile && !checkerFiles.has(file)) return;
        report = null;
        for (const id of [RESOLVED, STYLES_RESOLVED]) {
          const mod = server.moduleGraph.getModuleById(id);
          if (mod) server.moduleGraph.invalidateModule(mod);
        }
        server.ws.send({ type: 'full-reload' });
      };
      server.watcher.on('add', onFile).on('change', onFile).on('unlink', onFile);
    },
  };
}
