// A tab title per route (issue 39: every page had the same one, so ten open lessons were ten
// "PipeLab" tabs): the lesson's or page's name, then the site's. The start page keeps the title
// the HTML page was served with. And a lesson's neighbours, for its previous and next links.

/** The title of the page for `path`; `home` is the served page's own title. */
export function pageTitle(
  path: string,
  lessons: ReadonlyArray<{ slug: string; title: string }>,
  home: string,
): string {
  const named = (name: string) => `${name} · PipeLab`;
  if (path === '/') return home;
  if (path === '/threads') return named('Counting threads');
  if (path === '/experiment') return named('Your experiment');
  if (path === '/papers') return named('What the papers found');
  const m = /^\/(lessons|present)\/([a-z0-9-]+)$/.exec(path);
  const lesson = m ? lessons.find((l) => l.slug === m[2]) : undefined;
  if (m && lesson) return named(m[1] === 'present' ? `${lesson.title} (talk)` : lesson.title);
  return named('No such page');
}

/** The lessons before and after `slug` in the course's order (null at either end). */
export function lessonNeighbours<L extends { slug: string }>(
  lessons: readonly L[],
  slug: string,
): { prev: L | null; next: L | null } {
  const i = lessons.findIndex((l) => l.slug === slug);
  return { prev: i > 0 ? lessons[i - 1] : null, next: i >= 0 ? (lessons[i + 1] ?? null) : null };
}
