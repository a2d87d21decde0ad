// An experiment linked by its spec alone (#/experiment?spec=<JSON>): validated like a lesson's,
// shown with the same panel and views, no prose. For sharing a setup, and for the UI benchmark.
import { parseExperimentSpec, type ExperimentSpec } from '../spec/experimentSpec';
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
    styles: {},
    ...viewsFor(experiment),
  };
}

/** The title, models and views that differ by runtime: a barrier run gets its packing grid, a
 * pipeline its stage view (and work stealing its steals). */
function viewsFor(experiment: ExperimentSpec): Pick<Lesson, 'title' | 'models' | 'blocks'> {
  if (experiment.runtime === 'barrier') {
    return {
      title: `Experiment: barrier, ${experiment.threads} threads, ${experiment.schedule} schedule`,
      models: ['packing-bound', 'balanced'],
      blocks: [
        { kind: 'component', name: 'experiment' },
        { kind: 'component', name: 'packing-grid' },
        { kind: 'component', name: 'timeline' },
      ],
    };
  }
  const workStealing = experiment.runtime === 'work-stealing';
  return {
    title: `Experiment: ${experiment.runtime}, ${experiment.stages.length} stages`,
    models: workStealing ? ['case3', 'ideal'] : ['case1', 'case1-per-server'],
    blocks: [
      { kind: 'component', name: 'experiment' },
      { kind: 'component', name: 'pipeline' },
      ...(workStealing ? [{ kind: 'component' as const, name: 'steals' as const }] : []),
      { kind: 'component', name: 'timeline' },
    ],
  };
}
