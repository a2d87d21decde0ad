// A lesson as presenter steps: the introduction (everything before the first `##` section), then one
// step per section, each with its prose, its speaker notes (`<!-- notes: … -->` in the lesson's
// markdown) and the views it places; and which views a step's stage shows. Pure, so it is tested
// without a page.
import type { ComponentName } from '../../lessons/components';
import type { ControlValues } from '../../lessons/controls';
import type { Lesson } from '../../lessons/loadLessons';

export interface PresenterStep {
  title: string;
  /** The step's prose, as rendered at build time. */
  html: string;
  /** The speaker's notes (plain text), or null: the presenter's window then shows the prose. */
  notes: string | null;
  /** The views the step's section names in a `::stage` line, or else the ones it places
   * (`::name`), in order, the experiment panel left out: the stage shows it on every step. */
  views: ComponentName[];
  /** Control values the presenter sets on stepping here (the section's `::stage ?id=v`), or null. */
  settings: ControlValues | null;
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
  type Draft = {
    title: string;
    html: string[];
    views: ComponentName[];
    staged?: ComponentName[];
    settings?: ControlValues | null;
  };
  const steps: Draft[] = [{ title: lesson.title, html: [], views: [] }];
  for (const b of lesson.blocks) {
    const last = steps[steps.length - 1];
    if (b.kind === 'stage') {
      last.staged = b.names;
      last.settings = b.settings;
      continue;
    }
    if (b.kind === 'component') {
      if (b.name !== 'experiment' && !last.views.includes(b.name)) last.views.push(b.name);
      continue;
    }
    const heading = HEADING.exec(b.html);
    if (heading) steps.push({ title: plain(heading[1]), html: [], views: [] });
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
        // A `::stage` line decides the stage; else the views the section places.
        views: s.staged ?? s.views,
        settings: s.settings ?? null,
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
  'measure',
];

/** The lesson's main view: its first placed component that is a view of the run (the pipeline,
 * the steals…); the timeline only when there is nothing else. */
export function mainView(lesson: Pick<Lesson, 'blocks'>): ComponentName | null {
  const placed = lesson.blocks.flatMap((b) => (b.kind === 'component' ? [b.name] : []));
  return (
    placed.find((n) => !NOT_MAIN.includes(n)) ?? (placed.includes('timeline') ? 'timeline' : null)
  );
}

/** Views that read without the experiment panel above them: the paper's table of figures needs the
 * room, and nothing in it is steered from the panel. */
const WITHOUT_PANEL: ComponentName[] = ['paper'];

/** What a step's stage shows, top to bottom: the experiment panel (unless every view reads without
 * it), then the views the step's section places (the "Size it for me" step its button, the paper's
 * step its table) or, for a section that places none, the lesson's main view and its model chart,
 * so no step is left without a view of the run. */
export function stageViews(
  lesson: Pick<Lesson, 'blocks'>,
  step: Pick<PresenterStep, 'views'>,
): ComponentName[] {
  const main = mainView(lesson);
  const chart = lesson.blocks.some((b) => b.kind === 'component' && b.name === 'model-chart');
  const views: ComponentName[] =
    step.views.length > 0
      ? step.views
      : [...(main ? [main] : []), ...(chart ? (['model-chart'] as const) : [])];
  const alone = views.length > 0 && views.every((v) => WITHOUT_PANEL.includes(v));
  return alone ? views : ['experiment', ...views];
}

/** The controls a step's slide offers besides the panel's first (the lesson's main knob): the ones
 * its `::stage … ?id=v` settings name, which its prose talks about. A slide has room for a compact
 * bar, not the lesson's whole panel; the presenter's window keeps every control. */
export function stageControls(step: Pick<PresenterStep, 'settings'>): ReadonlySet<string> {
  return new Set(Object.keys(step.settings ?? {}));
}
