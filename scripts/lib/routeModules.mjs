// Which modules a lesson route loads before its page answers, in one place for the three that need
// it: the app (src/app/pages.tsx loads them; its rule is src/lessons/lessonEntry.ts), the build
// (src/app/routePreloadPlugin.ts names their chunks in index.html's route preload), and the load
// benchmark and its budget guard (bench/load/criticalPath.mjs). A route loads the lesson page, the
// lesson's data module and the components its prose places down to the experiment panel.
import { posix } from 'node:path';

/** The lesson page's module, from the project root. */
export const LESSON_PAGE = 'src/app/lesson/LessonPage.tsx';
/** The presenter's module, from the project root. */
export const PRESENT_PAGE = 'src/app/present/PresentPage.tsx';
/** The component registry (name → loader lines), from the project root. */
export const REGISTRY = 'src/app/lesson/registry.ts';
/** The module id of a lesson's data (src/lessons/vitePlugin.ts). */
export const lessonDataId = (slug) => `virtual:lesson/${slug}`;

/** `::name` lines of a lesson's markdown down to the first `::experiment` (all of them without
 * one): the components its page draws before it answers (not `::stage` lines, the presenter's). */
export function criticalComponents(markdown) {
  const names = [...markdown.matchAll(/^::([a-z][a-z-]*)(\{[^}\n]*\})?\s*$/gm)].map((m) => m[1]);
  const panel = names.indexOf('experiment');
  return [...new Set(panel < 0 ? names : names.slice(0, panel + 1))];
}

/** name → source file (from the project root) of each lesson component, read from the registry's
 * loader lines (`name: () => import('./components/X')…`, paths relative to src/app/lesson/). */
export function componentFiles(registrySource) {
  const files = new Map();
  for (const m of registrySource.matchAll(
    /^\s*'?([a-z][a-z-]*)'?:\s*\(\)\s*=>\s*\n?\s*import\('(\.{1,2}\/[\w/]+)'\)/gm,
  ))
    files.set(m[1], posix.join('src/app/lesson', `${m[2]}.tsx`));
  return files;
}
