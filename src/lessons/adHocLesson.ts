// An experiment linked by its spec alone (#/experiment?spec=<JSON>): validated like a lesson's,
// shown with the same panel and views, no prose. For sharing a setup, and for the UI benchmark.
import { parseExperimentSpec, type ExperimentSpec } from '../spec/experimentSpec';
import { runtimeOf } from '../runtimes';
import type { Lesson } from './loadLessons';

export function adHocLesson(specJson: string | null): Lesson {
  if (!specJson) throw new Error('spec is missing: use #/experiment?spec=<ExperimentSpec JSON>');
  let raw: unknown;
  try {
    raw = JSON.parse(specJson);
  } catch (e) {
    throw new Error(`spec is not valid JSON: ${(e as Error).message}`, { cause: e });
  }
  let experiment: ExperimentSpec;
  try {
    experiment = parseExperimentSpec(raw);
  } catch (e) {
    // The spec's field paths start below it ("stages[0].op"); a problem with the whole of it has
    // none ("an array is not an object"): say whose problem it is either way.
    throw new Error(`spec: ${(e as Error).message}`, { cause: e });
  }
  return {
    number: 0,
    slug: 'experiment',
    summary: 'An experiment given by its spec.',
    experimentSource: raw,
    experiment,
    controls: [],
    sweep: null,
    claims: [],
    paper: [],
    measure: [],
    styles: {},
    ...viewsFor(experiment),
  };
}

/** The title, models and views its runtime kind's module gives an experiment of its own (a
 * barrier run gets its packing grid, a pipeline its stage view, work stealing its steals too). */
function viewsFor(experiment: ExperimentSpec): Pick<Lesson, 'title' | 'models' | 'blocks'> {
  const { title, models, views } = runtimeOf(experiment).views.adHoc;
  return {
    title: title(experiment),
    models: [...models],
    blocks: [
      { kind: 'component', name: 'experiment' },
      ...views.map((name) => ({ kind: 'component' as const, name })),
    ],
  };
}
