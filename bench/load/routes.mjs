// The pages `npm run bench:load` opens: the home page, every lesson (from lessons/NN-slug.md), a
// presenter step, an embedded lesson, and the builder (#/build) once the app has one. Each names the
// hash it opens and what "the first control answers" means on it: Run enabled where the page has an
// experiment, else the first link the visitor would follow (the home page's lesson cards).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Run enabled in an idle experiment panel (the same moment bench:ui and the e2e tests wait for). */
export const RUN_ENABLED =
  '[data-testid=experiment][data-state=idle] [data-testid=run]:not([disabled])';

/** Lesson slugs in lesson order, from the file names (`01-pipelines-and-bubbles.md`). */
export function lessonSlugs(dir) {
  return readdirSync(dir)
    .map((f) => /^(\d+)-([a-z0-9-]+)\.md$/.exec(f))
    .filter(Boolean)
    .sort((a, b) => Number(a[1]) - Number(b[1]))
    .map((m) => m[2]);
}

/**
 * @param {string[]} slugs  the lessons, in order
 * @returns {Array<{name: string, hash: string, ready: string, optional?: boolean}>}
 *   name: the route's name in flags and the report; ready: the selector whose first match is
 *   "the first control answers"; optional: a route the app may not have yet (skipped with a note
 *   when the page says "No such page").
 */
export function loadRoutes(slugs) {
  const first = slugs[0];
  return [
    { name: 'home', hash: '#/', ready: '.lesson-cards a' },
    ...slugs.map((slug) => ({ name: slug, hash: `#/lessons/${slug}`, ready: RUN_ENABLED })),
    // A step past the introduction: the stage shows that section's views beside the panel.
    { name: 'present', hash: `#/present/${first}?step=2`, ready: RUN_ENABLED },
    { name: 'embed', hash: `#/lessons/${first}?embed=1`, ready: RUN_ENABLED },
    { name: 'build', hash: '#/build', ready: RUN_ENABLED, optional: true },
  ];
}

export const defaultLessonDir = (repoRoot) => join(repoRoot, 'lessons');
