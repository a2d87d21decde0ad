// A lesson as presenter steps: the introduction (everything before the first `##` section), then one
// step per section, each with its prose and its speaker notes (`<!-- notes: … -->` in the lesson's
// markdown). Pure, so it is tested without a page.
import type { ComponentName } from '../../lessons/components';
import type { Lesson } from '../../lessons/loadLessons';

export interface PresenterStep {
  title: string;
  /** The step's prose, as rendered at build time. */
  html: string;
  /** The speaker's notes (plain text), or null: the presenter's window then shows the prose. */
  notes: string | null;
}

const NOTES = /<!--\s*notes:\s*([\s\S]*?)-->/g;
const HEADING = /^<h2[^>]*>([\s\S]*?)<\/h2>/;
const plain = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();

export function presenterSteps(lesson: Pick<Lesson, 'title' | 'blocks'>): PresenterStep[] {
  const steps: Array<{ title: string; html: string[] }> = [{ title: lesson.title, html: [] }];
  for (const b of lesson.blocks) {
    if (b.kind !== 'html') continue;
    const heading = HEADING.exec(b.html);
    if (heading) steps.push({ title: plain(heading[1]), html: [] });
    steps[steps.length - 1].html.push(b.html);
  }
  return steps
    .filter((s) => s.html.length > 0)
    .map((s) => {
      const html = s.html.join('\n');
      const notes = [...html.matchAll(NOTES)].map((m) => m[1].trim());
      return {
        title: s.title,
        html: html.replace(NOTES, ''),
        notes: notes.length ? notes.join('\n\n') : null,
      };
    });
}

/** Components a presenter never shows as the main view: it has the panel and chart already. */
const NOT_MAIN: ComponentName[] = [
  'experiment',
  'model-chart',
  'paper',
  'timeline',
  'task-timeline',
  'batch-chart',
  'branch-compare',
];

/** The lesson's main view: its first placed component that is a view of the run (the pipeline,
 * the steals…); the timeline only when there is nothing else. */
export function mainView(lesson: Pick<Lesson, 'blocks'>): ComponentName | null {
  const placed = lesson.blocks.flatMap((b) => (b.kind === 'component' ? [b.name] : []));
  return (
    placed.find((n) => !NOT_MAIN.includes(n)) ?? (placed.includes('timeline') ? 'timeline' : null)
  );
}
