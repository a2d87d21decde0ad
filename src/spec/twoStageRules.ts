// The rules of the two-stage I/O runtime kinds (Dempsey, seed 002; contracts/spec.md): a fixed
// two-stage shape (output: parallel format, then the serial in-order writer; input: the serial
// scan, then parallel readers), the `variant` (two-stage, dual-thread, serial), the batch size and
// the output's buffer pool, which must fit the threads engine's memory budget.
import { BUDGETS, DEFAULTS, LIMITS } from './limits';
import { readEnum, readInteger, SpecError, type JsonObject } from './specFields';

export const TWO_STAGE_VARIANTS = ['two-stage', 'dual-thread', 'serial'] as const;
export type TwoStageVariant = (typeof TWO_STAGE_VARIANTS)[number];

export const TWO_STAGE_KINDS = ['two-stage-output', 'two-stage-input'] as const;
export type TwoStageKind = (typeof TWO_STAGE_KINDS)[number];

/** Which of the two stages is the parallel one (the other is the serial in-order one). */
export const PARALLEL_STAGE: Record<TwoStageKind, number> = {
  'two-stage-output': 0,
  'two-stage-input': 1,
};

/** What the rules see of a stage (the full StageSpec lives in experimentSpec.ts). */
export interface StageShape {
  mode: string;
  threads: number;
}

/** Exactly two stages: the parallel one where the kind has it, the other serial-in-order. */
export function checkTwoStageShape(kind: TwoStageKind, stages: readonly StageShape[]): void {
  if (stages.length !== 2)
    throw new SpecError(
      'stages',
      `${stages.length} stages is out of range (allowed 2 for the ${kind} runtime)`,
    );
  stages.forEach((stage, i) => {
    const want = i === PARALLEL_STAGE[kind] ? 'parallel' : 'serial-in-order';
    if (stage.mode !== want)
      throw new SpecError(
        `stages[${i}].mode`,
        `${JSON.stringify(stage.mode)} is not one of ${want} (allowed for stage ${i} of the ${kind} runtime)`,
      );
  });
}

export const readVariant = (obj: JsonObject): TwoStageVariant =>
  obj.variant === undefined ? 'two-stage' : readEnum(obj.variant, 'variant', TWO_STAGE_VARIANTS);

/**
 * The thread count: the parallel stage's threads plus the serial stage's one (two-stage,
 * dual-thread: then it is the sum of the stage threads, `sumOfStageThreads`), or 1 for the serial
 * variant, where one thread does both stages. Dual-thread and serial take one parallel thread.
 */
export function twoStageThreads(
  kind: TwoStageKind,
  obj: JsonObject,
  stageThreads: number[],
  sumOfStageThreads: (obj: JsonObject, stageThreads: number[]) => number,
): number {
  const variant = readVariant(obj);
  const p = PARALLEL_STAGE[kind];
  if (variant !== 'two-stage' && stageThreads[p] !== 1)
    throw new SpecError(
      `stages[${p}].threads`,
      `${stageThreads[p]} is out of range (allowed 1 for the ${variant} variant)`,
    );
  if (variant !== 'serial') return sumOfStageThreads(obj, stageThreads);
  if (obj.threads !== undefined) {
    const threads = readInteger(obj.threads, 'threads', ...LIMITS.threads);
    if (threads !== 1)
      throw new SpecError(
        'threads',
        `${threads} differs from the serial variant's one thread (allowed 1)`,
      );
  }
  return 1;
}

const readBatchItems = (obj: JsonObject) =>
  obj.batchItems === undefined
    ? DEFAULTS.batchItems
    : readInteger(obj.batchItems, 'batchItems', ...LIMITS.batchItems);

/** The most buffers of `batchItems` items the pool budget holds (and the buffers range allows). */
export function maxBuffers(batchItems: number): number {
  const perBuffer = batchItems * BUDGETS.outputLineBytes;
  return Math.min(LIMITS.buffers[1], Math.floor(BUDGETS.bufferPoolBytes / perBuffer));
}

/** Output: variant, batchItems, then buffers (default: formatting threads + 2, Dempsey's pool). */
export function twoStageOutputFields(obj: JsonObject, stageThreads: number[]): JsonObject {
  const variant = readVariant(obj);
  const batchItems = readBatchItems(obj);
  const [min] = LIMITS.buffers;
  const buffers =
    obj.buffers === undefined
      ? stageThreads[PARALLEL_STAGE['two-stage-output']] + 2
      : readInteger(obj.buffers, 'buffers', ...LIMITS.buffers);
  const max = maxBuffers(batchItems);
  if (buffers > max)
    throw new SpecError(
      'buffers',
      `${buffers} is out of range (allowed ${min}..${max} for batches of ${batchItems} items at ${BUDGETS.outputLineBytes} bytes each: ${BUDGETS.bufferPoolBytes} bytes in all)`,
    );
  return { variant, batchItems, buffers };
}

/** Input: variant, then batchItems (records per span). */
export const twoStageInputFields = (obj: JsonObject): JsonObject => ({
  variant: readVariant(obj),
  batchItems: readBatchItems(obj),
});
