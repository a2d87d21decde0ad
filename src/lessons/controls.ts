// Lesson controls: their types, how they are read from front matter, and how their values are
// written into the experiment (spec paths such as `stages[1].threads`). Pure; used at build time
// and on the page.
import { parseExperimentSpec, type ExperimentSpec, type StageSpec } from '../spec/experimentSpec';
import { parallelThreadsOf, splitParallelThreads } from '../spec/parallelThreads';
import { TOP_FIELDS } from '../spec/runtimeKinds';
import { valueShown } from '../spec/words';
import {
  join,
  readId,
  readInteger,
  readObject,
  readString,
  requireField,
  SpecError,
} from '../spec/specFields';

/** A number the visitor sets within min..max; written to one or more integer spec fields. */
export interface RangeControl {
  kind: 'range';
  /** The URL parameter name. */
  id: string;
  label: string;
  /** Spec paths the value is written to, e.g. `stages[1].threads` or PARALLEL_THREADS. Empty for
   * a lesson parameter: a value the lesson's own components read, changing no spec field. */
  targets: string[];
  min: number;
  max: number;
  step: number;
  unit: string | null;
  /** The value may also be UNBOUNDED, written to the targets as null (a queue's capacity); absent
   * means false (controls built in code need not say). */
  unbounded?: boolean;
  /** The spec's value at the first target (UNBOUNDED for null), or the front matter's `default`
   * for a lesson parameter. */
  defaultValue: number | typeof UNBOUNDED;
}

/** A range control's value for null (an unbounded queue: the paper's open model). */
export const UNBOUNDED = 'unbounded';

/** The threads of the parallel stages in total (the paper's npTh): written, it is split over the
 * parallel stages as evenly as integers allow (src/spec/parallelThreads.ts); read, their sum. */
export const PARALLEL_THREADS = 'stages[parallel].threads';

/** One of a few named variants, each replacing top-level spec fields (e.g. the whole `stages`). */
export interface ChoiceControl {
  kind: 'choice';
  id: string;
  label: string;
  choices: Array<{ value: string; label: string; set: Record<string, unknown> }>;
  /** The first choice. */
  defaultValue: string;
}

export type LessonControl = RangeControl | ChoiceControl;

/** Whether a control changes the experiment at all: a range always does; a choice whose options
 * all set nothing is a setting of the lesson's own views (e.g. which race to run), which read it
 * from the values, and the experiment panel leaves it out. */
export const changesExperiment = (c: LessonControl): boolean =>
  c.kind === 'range' || c.choices.some((x) => Object.keys(x.set).length > 0);
export type ControlValues = Record<string, number | string>;

const CONTROL_ID = /^[a-z][A-Za-z0-9]{0,23}$/;
const PATH_STEP = /([A-Za-z]+)|\[(\d+)\]/g;

/** Reads the value at a spec path such as `stages[1].threads` (undefined when absent). */
export function getAtPath(root: unknown, path: string): unknown {
  if (path === PARALLEL_THREADS) {
    const stages = (root as { stages?: unknown })?.stages;
    return Array.isArray(stages) && stages.some((s) => (s as StageSpec)?.mode === 'parallel')
      ? parallelThreadsOf((stages as StageSpec[]).map((s) => ({ ...s, threads: s.threads ?? 1 })))
      : undefined;
  }
  let node: unknown = root;
  for (const m of path.matchAll(PATH_STEP)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[m[1] ?? Number(m[2])];
  }
  return node;
}

/** A deep copy of `root` with the value at `path` replaced. */
export function setAtPath<T>(root: T, path: string, value: unknown): T {
  const copy = structuredClone(root) as Record<string, unknown>;
  if (path === PARALLEL_THREADS) {
    const stages = (copy.stages as StageSpec[]).map((s) => ({ ...s, threads: s.threads ?? 1 }));
    try {
      copy.stages = splitParallelThreads(stages, value as number);
    } catch (e) {
      throw new SpecError(PARALLEL_THREADS, (e as Error).message);
    }
    return copy as T;
  }
  const steps = [...path.matchAll(PATH_STEP)].map((m) => m[1] ?? Number(m[2]));
  let node = copy as Record<string | number, unknown>;
  for (const step of steps.slice(0, -1)) node = node[step] as Record<string | number, unknown>;
  node[steps[steps.length - 1]] = value;
  return copy as T;
}

/**
 * The experiment with every control set to `values[id]` (absent controls keep their default).
 * Applied to the source spec, so derived defaults (e.g. a static pipeline's total threads) follow;
 * choices first (they replace whole fields), then ranges (they write into those fields).
 */
export function applyControls(
  experimentSource: unknown,
  controls: LessonControl[],
  values: ControlValues,
): ExperimentSpec {
  let spec = experimentSource as Record<string, unknown>;
  for (const c of controls) {
    if (c.kind !== 'choice' || values[c.id] === undefined) continue;
    const choice = c.choices.find((x) => x.value === values[c.id]);
    if (!choice)
      throw new SpecError(
        c.id,
        `"${values[c.id]}" is not one of ${c.choices.map((x) => x.value).join(', ')}`,
      );
    spec = { ...spec, ...structuredClone(choice.set) };
  }
  for (const c of controls) {
    const v = values[c.id];
    if (c.kind !== 'range' || v === undefined) continue;
    for (const target of c.targets) spec = setAtPath(spec, target, v === UNBOUNDED ? null : v);
  }
  return parseExperimentSpec(spec);
}

function readChoiceControl(
  o: Record<string, unknown>,
  path: string,
  id: string,
  label: string,
): ChoiceControl {
  const raw = o.choices;
  if (!Array.isArray(raw) || raw.length < 2 || raw.length > 8)
    throw new SpecError(join(path, 'choices'), 'must be a list of 2..8 choices');
  const choices = raw.map((c, i) => {
    const cp = join(join(path, 'choices'), i);
    const co = readObject(c, cp, ['value', 'label', 'set']);
    // A choice replaces whole top-level fields; it cannot change the seed. It may set the cores:
    // a choice can stand for another machine (a paper's), which the twin then simulates (the
    // threads engine always runs on the visitor's cores).
    const set = readObject(
      requireField(co, 'set', cp),
      join(cp, 'set'),
      TOP_FIELDS.filter((f) => f !== 'seed'),
    );
    return {
      value: readString(requireField(co, 'value', cp), join(cp, 'value'), 1, 16),
      label: readString(requireField(co, 'label', cp), join(cp, 'label'), 1, 40),
      set,
    };
  });
  return { kind: 'choice', id, label, choices, defaultValue: choices[0].value };
}

export function readControl(
  value: unknown,
  path: string,
  experiment: ExperimentSpec,
): LessonControl {
  const o = readObject(value, path, [
    'id',
    'label',
    'targets',
    'min',
    'max',
    'step',
    'unit',
    'unbounded',
    'default',
    'choices',
  ]);
  const id = readId(o, path, CONTROL_ID, 24);
  const label = readString(requireField(o, 'label', path), join(path, 'label'), 1, 60);
  if (o.choices !== undefined) {
    for (const key of ['targets', 'min', 'max', 'step', 'unit', 'unbounded', 'default'])
      if (o[key] !== undefined)
        throw new SpecError(join(path, key), 'not allowed on a control with choices');
    return readChoiceControl(o, path, id, label);
  }
  if (o.unbounded !== undefined && typeof o.unbounded !== 'boolean')
    throw new SpecError(join(path, 'unbounded'), `${String(o.unbounded)} is not true or false`);
  const unbounded = o.unbounded === true;
  // A lesson parameter (no targets) takes its default from the front matter.
  const targetsRaw = o.targets ?? (o.default !== undefined ? [] : requireField(o, 'targets', path));
  if (!Array.isArray(targetsRaw) || targetsRaw.length > 16)
    throw new SpecError(join(path, 'targets'), 'must be a list of 1..16 spec paths');
  if (targetsRaw.length > 0 && o.default !== undefined)
    throw new SpecError(
      join(path, 'default'),
      "not allowed on a control with targets (its default is the experiment's value)",
    );
  const targets = targetsRaw.map((t, i) => {
    const tp = join(join(path, 'targets'), i);
    const target = readString(t, tp, 1, 64);
    const at = getAtPath(experiment, target);
    if (!Number.isInteger(at) && !(unbounded && at === null))
      throw new SpecError(
        tp,
        `"${target}" is not an integer field of the experiment${unbounded ? ' (or null)' : ''}`,
      );
    return target;
  });
  const min = readInteger(requireField(o, 'min', path), join(path, 'min'), 0, 1e8);
  const max = readInteger(requireField(o, 'max', path), join(path, 'max'), min, 1e8);
  const step =
    o.step === undefined ? 1 : readInteger(o.step, join(path, 'step'), 1, max - min || 1);
  const unit = o.unit === undefined ? null : readString(o.unit, join(path, 'unit'), 1, 16);
  const raw =
    targets.length > 0
      ? getAtPath(experiment, targets[0])
      : readInteger(o.default, join(path, 'default'), min, max);
  const defaultValue = raw === null ? UNBOUNDED : (raw as number);
  if (defaultValue !== UNBOUNDED && (defaultValue < min || defaultValue > max))
    throw new SpecError(
      join(path, 'targets'),
      `the experiment's ${targets[0]} = ${defaultValue} is outside min..max (${min}..${max})`,
    );
  // The slider's max and its default must be values it can show.
  const range = { min, max, step };
  if (!onStep(range, max))
    throw new SpecError(join(path, 'max'), `${max} is between steps (${rangeText(range)})`);
  if (defaultValue !== UNBOUNDED && !onStep(range, defaultValue))
    throw new SpecError(
      join(path, targets.length > 0 ? 'targets' : 'default'),
      `the default ${defaultValue} is between steps (${rangeText(range)})`,
    );
  return { kind: 'range', id, label, targets, min, max, step, unit, unbounded, defaultValue };
}

/** A range control's value from text (a URL parameter, a claim's `at`): an integer in min..max,
 * or UNBOUNDED where the control allows it; else an error naming the control and the range. */
export function rangeValue(
  control: RangeControl,
  raw: unknown,
): { value: number | typeof UNBOUNDED } | { error: string } {
  if (control.unbounded && raw === UNBOUNDED) return { value: UNBOUNDED };
  const text = String(raw).trim();
  const value = typeof raw === 'number' ? raw : /^[+-]?\d+$/.test(text) ? Number(text) : NaN;
  const name = `${control.id}=${valueShown(String(raw))}`;
  if (!Number.isInteger(value))
    return { error: `${name} is not a whole number (${allowedValues(control)})` };
  if (value < control.min || value > control.max)
    return { error: `${name} is out of range (${allowedValues(control)})` };
  // The slider cannot show a value between its steps (it would snap to the next one and disagree
  // with the label and the run), so a URL or claim naming one is refused.
  if (!onStep(control, value))
    return { error: `${name} is between steps (${allowedValues(control)})` };
  return { value };
}

type Steps = Pick<RangeControl, 'min' | 'max' | 'step'>;

/** A slider shows min + k·step only. */
const onStep = (c: Steps, value: number): boolean => (value - c.min) % c.step === 0;

/** "1..64", "1000..50000 in steps of 1000". */
const rangeText = (c: Steps): string =>
  `${c.min}..${c.max}${c.step > 1 ? ` in steps of ${c.step}` : ''}`;

/** "allowed 1..64", "allowed 1000..50000 in steps of 1000", "allowed 1..64 or unbounded". */
export const allowedValues = (c: RangeControl): string =>
  `allowed ${rangeText(c)}${c.unbounded ? ` or ${UNBOUNDED}` : ''}`;

/** Every choice, and every range control at its min and max under every choice, must give a
 * valid experiment: no position of the controls can produce a bad run. */
export function checkEveryPosition(experimentSource: unknown, controls: LessonControl[]): void {
  const choiceSets: ControlValues[] = [{}];
  for (const c of controls)
    if (c.kind === 'choice')
      for (const base of choiceSets.splice(0))
        for (const x of c.choices) choiceSets.push({ ...base, [c.id]: x.value });
  controls.forEach((c, i) => {
    const positions: Array<[string, ControlValues]> =
      c.kind === 'range'
        ? choiceSets.flatMap((base) => [
            ['max', { ...base, [c.id]: c.max }] as [string, ControlValues],
            ['min', { ...base, [c.id]: c.min }] as [string, ControlValues],
            ...(c.unbounded
              ? [['unbounded', { ...base, [c.id]: UNBOUNDED }] as [string, ControlValues]]
              : []),
          ])
        : choiceSets.map((values) => ['choices', values] as [string, ControlValues]);
    for (const [field, values] of positions) {
      try {
        applyControls(experimentSource, controls, values);
      } catch (e) {
        const where = Object.entries(values)
          .map(([k, v]) => `${k}=${v}`)
          .join(', ');
        throw new SpecError(
          join(join('controls', i), field),
          `at ${where} the experiment is invalid: ${(e as Error).message}`,
        );
      }
    }
  });
}
