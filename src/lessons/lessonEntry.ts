// What the app knows of every lesson before it loads one (the `virtual:lessons` index): enough for
// the start page and the list of pages, and the components the lesson's page and presenter place, so
// a route can fetch a lesson's data and components at once instead of one after the other. The full
// lesson is a module of its own (`virtual:lesson/<slug>`), loaded by its route.
import type { ComponentName } from './components';
import type { Lesson } from './loadLessons';

export interface LessonEntry extends Pick<Lesson, 'slug' | 'number' | 'title' | 'summary'> {
  /** Every component the lesson's prose places (`::name`) or a presenter step stages, once each. */
  components: ComponentName[];
  /** The components its page draws before it answers: those placed up to and including the
   * experiment panel (its Run button). The rest load once the page is up. */
  critical: ComponentName[];
}

/** `placed` (in page order) up to and including the experiment panel; all of them without one. */
export function criticalComponents(placed: readonly ComponentName[]): ComponentName[] {
  const panel = placed.indexOf('experiment');
  return [...new Set(panel < 0 ? placed : placed.slice(0, panel + 1))];
}

export function lessonEntry(lesson: Lesson): LessonEntry {
  const names = lesson.blocks.flatMap((b) =>
    b.kind === 'component' ? [b.name] : b.kind === 'stage' ? b.names : [],
  );
  const placed = lesson.blocks.flatMap((b) => (b.kind === 'component' ? [b.name] : []));
  return {
    slug: lesson.slug,
    number: lesson.number,
    title: lesson.title,
    summary: lesson.summary,
    components: [...new Set(names)],
    critical: criticalComponents(placed),
  };
}

/** Whether a lesson's prose holds a formula typeset at build time (its page needs KaTeX's CSS and
 * fonts; KaTeX's script never: renderProse ran it). */
export function hasFormulas(lesson: Lesson): boolean {
  return lesson.blocks.some((b) => b.kind === 'html' && b.html.includes('class="katex'));
}
