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
  const experiment = parseExperimentSpec(raw);
  if (experiment.runtime === 'barrier') return barrierLesson(raw, experiment);
  const workStealing = experiment.runtime === 'work-stealing';
  return {
    number: 0,
    slug: 'experiment',
    title: `Experiment: ${experiment.runtime}, ${experiment.stages.length} stages`,
    summary: 'An experiment given by its spec.',
    experimentSource: raw,
    experiment,
    controls: [],
    models: workStealing ? ['case3', 'ideal'] : ['case1', 'case1-per-server'],
    sweep: null,
    claims: [],
    paper: [],
    styles: {},
    blocks: [
      { kind: 'component', name: 'experiment' },
      { kind: 'component', name: 'pipeline' },
      ...(workStealing ? [{ kind: 'component' as const, name: 'steals' as const }] : []),
      { kind: 'component', name: 'timeline' },
    ],
  };
}

/** A barrier run: its experiment panel, the packing grid and the timeline. */
function barrierLesson(raw: unknown, experiment: ExperimentSpec): Lesson {
  return {
    number: 0,
    slug: 'experiment',
    title: `Experiment: barrier, ${experiment.threads} threads, ${experiment.schedule} schedule`,
    summary: 'An experiment given by its spec.',
    experimentSource: raw,
    experiment,
    controls: [],
    models: ['packing-bound', 'balanced'],
    sweep: null,
    claims: [],
    paper: [],
    styles: {},
    blocks: [
      { kind: 'component', name: 'experiment' },
      { kind: 'component', name: 'packing-grid' },
      { kind: 'component', name: 'timeline' },
    ],
  };
}
