// What a measurement block's `measured.<q>` and `twin.<q>` series read from a run: for each twin
// quantity that a single run (or a point of repeats) of a spec shows, which spec runs (the spec
// itself, another two-stage variant of it, or its input-end mirror), whether it is read from one
// finished run or from a point of repeats (the median and its spread), and the number taken from
// it. The twin's value in a block is the same run on the twin, so `measured.x` and `twin.x` are
// the same measurement on two engines. A quantity may be the ratio of two such points (thread
// packing's time over thread reduction's: `ratioOver` says which spec is the denominator), run as
// one ratio step; quantities with no such run (a stage's busy share) are claims' and paper rows'
// only.
import {
  TWO_STAGE_VARIANTS,
  type ExperimentSpec,
  type TwoStageVariant,
} from '../spec/experimentSpec';
import { inputMirror, withVariant } from '../spec/twoStageVariants';
import { assertFollowable } from '../runtimes/inSystem';
import { threadReduction } from '../spec/barrierFields';

/** The number a run gives: its throughput (items out per second), its time, when its first item
 * came out, time per item, and the checksum of what it wrote (real threads only). */
export type RunMetric =
  | 'throughput'
  | 'time'
  | 'first-out'
  | 'us-per-item'
  | 'checksum'
  | 'in-flight'
  | 'time-in-system'
  | 'lambda-times-w'
  | 'ratio';

export interface Measurable {
  /** How the name is written after `measured.` / `twin.`, for messages. */
  pattern: string;
  unit: 'items/s' | 's' | 'ms' | 'µs' | 'count' | 'checksum' | 'ratio';
  metric: RunMetric;
  /** A point of repeats (median and spread) serves it; otherwise one finished run. */
  fromPoint: boolean;
  /** What a chart's axis calls it. */
  words: string;
  /** The spec that runs for `name` (e.g. `time.serial`: the serial variant). */
  specFor(spec: ExperimentSpec, name: string): ExperimentSpec;
  /** A ratio of two points' times (metric `ratio`): the spec the run's time is divided by. */
  ratioOver?(spec: ExperimentSpec): ExperimentSpec;
  /** Only measured (the twin writes no text). */
  measuredOnly?: boolean;
  /** Why a run of this spec cannot give it (the build names it), or null when it can. */
  refuses?(spec: ExperimentSpec): string | null;
  matches(name: string): boolean;
}

const same = (spec: ExperimentSpec) => spec;
const notFollowable = (spec: ExperimentSpec) => {
  try {
    assertFollowable(spec);
    return null;
  } catch (e) {
    return (e as Error).message;
  }
};
const variantAfter = (prefix: string, name: string): TwoStageVariant | null => {
  const v = name.slice(prefix.length + 1);
  return name.startsWith(`${prefix}.`) && (TWO_STAGE_VARIANTS as readonly string[]).includes(v)
    ? (v as TwoStageVariant)
    : null;
};
const variants = TWO_STAGE_VARIANTS.join('|');

export const MEASURABLE: Measurable[] = [
  {
    pattern: 'throughput',
    unit: 'items/s',
    metric: 'throughput',
    fromPoint: true,
    words: 'throughput',
    specFor: same,
    matches: (n) => n === 'throughput',
  },
  {
    pattern: 'us-per-item',
    unit: 'µs',
    metric: 'us-per-item',
    fromPoint: true,
    words: 'time per item',
    specFor: same,
    matches: (n) => n === 'us-per-item',
  },
  {
    pattern: 'time',
    unit: 's',
    metric: 'time',
    fromPoint: false,
    words: 'time',
    specFor: same,
    matches: (n) => n === 'time',
  },
  {
    pattern: 'first-out',
    unit: 'ms',
    metric: 'first-out',
    fromPoint: false,
    words: 'first item out after',
    specFor: same,
    matches: (n) => n === 'first-out',
  },
  {
    pattern: `time.<${variants}>`,
    unit: 's',
    metric: 'time',
    fromPoint: false,
    words: 'time',
    specFor: (spec, n) => withVariant(spec, variantAfter('time', n)!),
    matches: (n) => variantAfter('time', n) !== null,
  },
  {
    pattern: `input-time.<${variants}>`,
    unit: 's',
    metric: 'time',
    fromPoint: false,
    words: 'input time',
    specFor: (spec, n) => withVariant(inputMirror(spec), variantAfter('input-time', n)!),
    matches: (n) => variantAfter('input-time', n) !== null,
  },
  {
    pattern: `input-throughput.<${variants}>`,
    unit: 'items/s',
    metric: 'throughput',
    fromPoint: true,
    words: 'records read',
    specFor: (spec, n) => withVariant(inputMirror(spec), variantAfter('input-throughput', n)!),
    matches: (n) => variantAfter('input-throughput', n) !== null,
  },
  // Little's law, from the run's start and end events over its steady window
  // (src/live/timeInSystem.ts): the same count on real threads' telemetry and on the twin's, for
  // pipelines whose items keep their identity from the first stage to the last.
  {
    pattern: 'in-flight',
    unit: 'count',
    metric: 'in-flight',
    fromPoint: false,
    words: 'items in the system (L)',
    specFor: same,
    refuses: notFollowable,
    matches: (n) => n === 'in-flight',
  },
  {
    pattern: 'time-in-system',
    unit: 'ms',
    metric: 'time-in-system',
    fromPoint: false,
    words: 'time in the system (W)',
    specFor: same,
    refuses: notFollowable,
    matches: (n) => n === 'time-in-system',
  },
  {
    pattern: 'lambda-times-w',
    unit: 'count',
    metric: 'lambda-times-w',
    fromPoint: false,
    words: 'throughput × time in the system (λ·W)',
    specFor: same,
    refuses: notFollowable,
    matches: (n) => n === 'lambda-times-w',
  },
  {
    // Thread packing over thread reduction (the barrier runtime): the spec's time over the time
    // of min(threads, cores) threads doing the same work, both points of repeats on one engine.
    pattern: 'tp-over-tr',
    unit: 'ratio',
    metric: 'ratio',
    fromPoint: true,
    words: 'time packed / one thread per core (TP / TR)',
    specFor: same,
    ratioOver: threadReduction,
    matches: (n) => n === 'tp-over-tr',
  },
  {
    pattern: 'checksum',
    unit: 'checksum',
    metric: 'checksum',
    fromPoint: false,
    words: 'checksum of the text written',
    specFor: same,
    measuredOnly: true,
    matches: (n) => n === 'checksum',
  },
];

export const measurableNamed = (name: string): Measurable | undefined =>
  MEASURABLE.find((m) => m.matches(name));
