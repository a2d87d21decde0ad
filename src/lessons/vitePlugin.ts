// Vite plugin: `import lessons, { lessonErrors, lessonLoaders } from 'virtual:lessons'` gives the
// index of the validated lessons of lessons/ (lessonEntry.ts: titles, summaries, the components each
// places) and a loader per lesson: `virtual:lesson/<slug>` is the lesson itself (prose, claims, paper
// rows), a chunk of its own, with KaTeX's stylesheet only when its prose has formulas, so a page
// loads its own lesson and no other. A bad lesson fails `vite build` naming file and field;
// the dev server instead serves the good lessons with the messages (the page shows them) and
// reloads the page whenever a lesson file, or the code that checks lessons, changes.
//
// Vite loads this file with its config, so it imports only Node and Vite: the lesson loader and
// everything it uses (spec, models, twin) are TypeScript modules loaded through Vite's module
// runner (runnerImport), which also tells which files they came from, so edits to them reload too.
import { dirname, resolve } from 'node:path';
import { runnerImport, type Plugin } from 'vite';
import { inlineStyleSheet } from './inlineStyles.ts';
import { hasFormulas, lessonEntry } from './lessonEntry.ts';
import type { loadLessonsReport } from './loadLessons.ts';

const ID = 'virtual:lessons';
const RESOLVED = `\0${ID}`;
/** One lesson's module: `virtual:lesson/<slug>`. */
const LESSON_PREFIX = 'virtual:lesson/';
const LESSON_RESOLVED = `\0${LESSON_PREFIX}`;
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
    resolveId: (id) =>
      id === ID
        ? RESOLVED
        : id === STYLES_ID
          ? STYLES_RESOLVED
          : id.startsWith(LESSON_PREFIX)
            ? `\0${id}`
            : null,
    async load(id) {
      if (id === STYLES_RESOLVED)
        return inlineStyleSheet(Object.assign({}, ...(await load()).lessons.map((l) => l.styles)));
      if (id.startsWith(LESSON_RESOLVED)) {
        const slug = id.slice(LESSON_RESOLVED.length);
        const lesson = (await load()).lessons.find((l) => l.slug === slug);
        if (!lesson) return this.error(`no lesson ${slug} in ${dir}`);
        const css = hasFormulas(lesson) ? `import 'katex/dist/katex.min.css';\n` : '';
        return `${css}export default ${JSON.stringify(lesson)};`;
      }
      if (id !== RESOLVED) return null;
      const { lessons, errors } = await load();
      if (building && errors.length) this.error(errors.join('\n'));
      for (const e of errors) logError(`[lessons] ${e}`);
      const loaders = lessons.map(
        (l) =>
          `  ${JSON.stringify(l.slug)}: () => import(${JSON.stringify(LESSON_PREFIX + l.slug)}),`,
      );
      return [
        `export default ${JSON.stringify(lessons.map(lessonEntry))};`,
        `export const lessonErrors = ${JSON.stringify(errors)};`,
        `export const lessonLoaders = {\n${loaders.join('\n')}\n};`,
      ].join('\n');
    },
    configureServer(server) {
      server.watcher.add(dir);
      const onFile = (file: string) => {
        const lessonFile = file.startsWith(dir) && file.endsWith('.md');
        if (!lessonFile && !checkerFiles.has(file)) return;
        report = null;
        for (const [id, mod] of server.moduleGraph.idToModuleMap)
          if (id === RESOLVED || id === STYLES_RESOLVED || id.startsWith(LESSON_RESOLVED))
            server.moduleGraph.invalidateModule(mod);
        server.ws.send({ type: 'full-reload' });
      };
      server.watcher.on('add', onFile).on('change', onFile).on('unlink', onFile);
    },
  };
}
