// Related runs of a two-stage spec, as the lesson on the ends of the pipeline compares them: the
// same run with another variant (Dempsey's serial and dual-thread comparison points), and the
// input end as the output end's mirror image — the serial stage first instead of last, with the
// same work per item (scan = write, read = format) and the same threads, batches and items.
import { parseExperimentSpec, type ExperimentSpec, type TwoStageVariant } from './experimentSpec';
import { PARALLEL_STAGE } from './twoStageRules';

function twoStageKind(spec: ExperimentSpec) {
  if (spec.runtime !== 'two-stage-output' && spec.runtime !== 'two-stage-input')
    throw new Error(`a two-stage spec is needed, not the ${spec.runtime} runtime`);
  return spec.runtime;
}

/** The same run with `variant`: dual-thread and serial get one parallel thread; the rest stays. */
export function withVariant(spec: ExperimentSpec, variant: TwoStageVariant): ExperimentSpec {
  const p = PARALLEL_STAGE[twoStageKind(spec)];
  const stages = spec.stages.map((s, i) =>
    i === p && variant !== 'two-stage' ? { ...s, threads: 1 } : s,
  );
  return parseExperimentSpec({ ...spec, stages, variant, threads: undefined, tokens: undefined });
}

/** The input end mirroring an output spec: scan costs what a write costs, a read what a format
 * costs, with as many readers as there were formatters. */
export function inputMirror(spec: ExperimentSpec): ExperimentSpec {
  if (twoStageKind(spec) !== 'two-stage-output')
    throw new Error(`the input mirror is of a two-stage-output spec, not ${spec.runtime}`);
  const [format, write] = spec.stages;
  return parseExperimentSpec({
    runtime: 'two-stage-input',
    stages: [
      { name: 'scan', mode: 'serial-in-order', service: write.service },
      { name: 'read', mode: 'parallel', threads: format.threads, service: format.service },
    ],
    variant: spec.variant,
    batchItems: spec.batchItems,
    items: spec.items,
    seed: spec.seed,
    cores: spec.cores,
  });
}
