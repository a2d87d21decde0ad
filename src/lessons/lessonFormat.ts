// The lesson front matter: its types and its validation (see FORMAT.md). Pure, so the same checks
// run in the build (vitePlugin.ts) and in the tests; errors name the field path.
import { MODEL_OVERLAYS, type ModelOverlay } from '../model/overlays';
import { runtimeOf } from '../runtimes';
import { parseExperimentSpec, type ExperimentSpec } from '../spec/experimentSpec';
import {
  join,
  readEnum,
  readObject,
  readString,
  requireField,
  SpecError,
} from '../spec/specFields';
import { readClaims, type ClaimSpec } from './claims';
import { checkEveryPosition, readControl, type LessonControl } from './controls';
import { readMeasureBlocks, type MeasureBlock } from './measureBlocks';
import { readPaperRows, type PaperRowSpec } from './paper';

export interface LessonMeta {
  title: string;
  summary: string;
  /** The spec as written in the lesson: controls are applied to it, defaults derived after. */
  experimentSource: unknown;
  /** The source with defaults applied (what runs when no control is moved). */
  experiment: ExperimentSpec;
  controls: LessonControl[];
  models: ModelOverlay[];
  sweep: string | null;
  /** The front matter's checked claims, validated (evaluated by loadLessons). */
  claims: ClaimSpec[];
  /** What the source papers measured, to set beside ours (twin values computed by loadLessons). */
  paper: PaperRowSpec[];
  /** What the page measures: blocks placed with `::measure{id=…}` (measureBlocks.ts). */
  measure: MeasureBlock[];
}

/** Validates parsed front matter; throws SpecError naming the field. */
export function validateLessonMeta(raw: unknown): LessonMeta {
  const o = readObject(raw, '', [
    'title',
    'summary',
    'experiment',
    'controls',
    'models',
    'sweep',
    'claims',
    'paper',
    'measure',
  ]);
  const title = readString(requireField(o, 'title', ''), 'title', 1, 80);
  const summary = readString(requireField(o, 'summary', ''), 'summary', 1, 240);
  const experimentSource = requireField(o, 'experiment', '');
  let experiment: ExperimentSpec;
  try {
    experiment = parseExperimentSpec(experimentSource);
  } catch (e) {
    if (e instanceof SpecError)
      throw new SpecError(join('experiment', e.path), e.message.replace(`${e.path}: `, ''));
    throw e;
  }
  const controlsRaw = o.controls ?? [];
  if (!Array.isArray(controlsRaw) || controlsRaw.length > 12)
    throw new SpecError('controls', 'must be a list of at most 12 controls');
  const controls = controlsRaw.map((c, i) => readControl(c, join('controls', i), experiment));
  const ids = new Set<string>();
  controls.forEach((c, i) => {
    if (ids.has(c.id))
      throw new SpecError(join(join('controls', i), 'id'), `"${c.id}" is used twice`);
    ids.add(c.id);
  });
  checkEveryPosition(experimentSource, controls);
  const modelsRaw = o.models ?? [];
  if (!Array.isArray(modelsRaw)) throw new SpecError('models', 'must be a list');
  // Each model must be one of the experiment's kind (its module lists them): another kind's
  // model would draw nothing.
  const kindModels = runtimeOf(experiment).model.overlays;
  const models = modelsRaw.map((m, i) => {
    const model = readEnum(m, join('models', i), MODEL_OVERLAYS);
    if (!kindModels.includes(model))
      throw new SpecError(
        join('models', i),
        `${model} is not a model of the ${experiment.runtime} runtime (its models: ${kindModels.join(', ')})`,
      );
    return model;
  });
  const sweep = o.sweep === undefined ? null : readEnum(o.sweep, 'sweep', [...ids]);
  const claims = readClaims(o.claims, controls);
  const paper = readPaperRows(o.paper, controls);
  const measure = readMeasureBlocks(o.measure, experimentSource, controls, paper);
  return {
    title,
    summary,
    experimentSource,
    experiment,
    controls,
    models,
    sweep,
    claims,
    paper,
    measure,
  };
}
