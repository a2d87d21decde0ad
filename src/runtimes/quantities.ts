// The names of the quantities a lesson's claims, paper rows and measurement blocks may compare
// (evaluated in src/lessons/claimQuantities.ts, one entry per name). Each runtime kind's module
// lists the ones its runs have, so the lesson loader rejects a quantity a kind lacks and names the
// ones it has; `model` stands for model.<overlay> over the kind's own overlays.
/** What every kind's runs have: the models drawn for it, the twin's rate and times, a stage's
 * share of busy time, the first item out. */
const COMMON = [
  'model',
  'twin.throughput',
  'twin.time',
  'twin.time-for-items',
  'twin.us-per-item',
  'twin.busy',
  'twin.first-out',
] as const;

export const QUANTITY_NAMES = [
  ...COMMON,
  'sizing',
  'bound.slowest-stage',
  'twin.time.variant',
  'twin.input-time.variant',
  'twin.input-throughput.variant',
  'bound.first-out',
  'twin.tp-over-tr',
  'twin.tp-over-tr.table1',
  'twin.imbalance',
  'bound.packing',
  'twin.in-flight',
  'twin.time-in-system',
  'twin.lambda-times-w',
] as const;
export type QuantityName = (typeof QUANTITY_NAMES)[number];

export const COMMON_QUANTITIES: readonly QuantityName[] = COMMON;

/** Little's law (runtimes/inSystem.ts): for kinds whose items keep their ids from the first
 * stage to the last (pipelines: static, collapsed, work stealing). */
export const IN_SYSTEM_QUANTITIES: readonly QuantityName[] = [
  'twin.in-flight',
  'twin.time-in-system',
  'twin.lambda-times-w',
];
