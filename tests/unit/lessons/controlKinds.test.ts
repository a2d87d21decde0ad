// The lesson controls beyond "a number into one integer field": npTh split over the parallel
// stages (the paper's c_i = npTh/npstages, rounded as documented), a queue size that may be
// unbounded (null, the open model), and lesson parameters that change no spec field. Each bad
// value is refused naming the control and what is allowed.
import { describe, expect, test } from 'vitest';
import {
  applyControls,
  getAtPath,
  PARALLEL_THREADS,
  rangeValue,
  readControl,
  UNBOUNDED,
  type RangeControl,
} from '../../../src/lessons/controls';
import { parseExperimentSpec } from '../../../src/spec/experimentSpec';
import { splitParallelThreads } from '../../../src/spec/parallelThreads';

const fixed = (us: number) => ({ kind: 'fixed', us });
const source = {
  runtime: 'static',
  stages: [
    { name: 'in', mode: 'serial-in-order', service: fixed(1) },
    { name: 'a', mode: 'parallel', service: fixed(1) },
    { name: 'b', mode: 'parallel', service: fixed(1) },
    { name: 'c', mode: 'parallel', service: fixed(1) },
    { name: 'd', mode: 'parallel', service: fixed(1) },
    { name: 'out', mode: 'serial-in-order', service: fixed(1) },
  ],
  queue: { kind: 'mutex', capacity: 20 },
  items: 10,
  seed: 1,
};
const experiment = parseExperimentSpec(source);
const npTh = readControl(
  { id: 'npTh', label: 'npTh', targets: [PARALLEL_THREADS], min: 4, max: 64 },
  'controls[0]',
  experiment,
) as RangeControl;
const queue = readControl(
  { id: 'queue', label: 'N', targets: ['queue.capacity'], min: 1, max: 64, unbounded: true },
  'controls[1]',
  experiment,
) as RangeControl;
const tpc = readControl(
  { id: 'tpc', label: 'per core', min: 2, max: 8, default: 4 },
  'controls[2]',
  experiment,
) as RangeControl;
const controls = [npTh, queue, tpc];
const threadsOf = (values: Record<string, number | string>) =>
  applyControls(source, controls, values).stages.map((s) => s.threads);

describe('npTh: the parallel stages threads in total', () => {
  test('reads as their sum and splits evenly, the first stages taking the remainder', () => {
    expect(npTh.defaultValue).toBe(4);
    expect(threadsOf({ npTh: 48 })).toEqual([1, 12, 12, 12, 12, 1]);
    expect(threadsOf({ npTh: 6 })).toEqual([1, 2, 2, 1, 1, 1]);
    expect(threadsOf({ npTh: 7 })).toEqual([1, 2, 2, 2, 1, 1]);
    expect(getAtPath(applyControls(source, controls, { npTh: 7 }), PARALLEL_THREADS)).toBe(7);
    // A collapsed runtime fuses the four stages: npTh is its one station's servers.
    const collapsed = applyControls({ ...source, runtime: 'collapsed' }, controls, { npTh: 15 });
    expect(collapsed.threads).toBe(17);
  });

  test('fewer threads than parallel stages is refused, naming the least', () => {
    expect(() => splitParallelThreads(experiment.stages, 3)).toThrow(
      'npTh: 3 is out of range (allowed 4 or more: one thread for each of the 4 parallel stages)',
    );
    expect(() =>
      splitParallelThreads(
        [{ name: 's', mode: 'serial-in-order', threads: 1, service: { kind: 'fixed', us: 1 } }],
        4,
      ),
    ).toThrow('npTh: 4 has no parallel stage to go to');
  });
});

describe('a queue size that may be unbounded', () => {
  test('writes null for unbounded and a number otherwise', () => {
    expect(queue.defaultValue).toBe(20);
    expect(applyControls(source, controls, { queue: UNBOUNDED }).queue.capacity).toBeNull();
    expect(applyControls(source, controls, { queue: 3 }).queue.capacity).toBe(3);
  });

  test('takes its default from a null field', () => {
    const open = parseExperimentSpec({ ...source, queue: { kind: 'mutex', capacity: null } });
    const c = readControl(
      { id: 'queue', label: 'N', targets: ['queue.capacity'], min: 1, max: 64, unbounded: true },
      'controls[0]',
      open,
    ) as RangeControl;
    expect(c.defaultValue).toBe(UNBOUNDED);
    expect(() =>
      readControl(
        { id: 'queue', label: 'N', targets: ['queue.capacity'], min: 1, max: 64 },
        'controls[0]',
        open,
      ),
    ).toThrow('controls[0].targets[0]: "queue.capacity" is not an integer field of the experiment');
  });

  test.each([
    [0, 'queue=0 is out of range (allowed 1..64 or unbounded)'],
    ['abc', 'queue=abc is not a whole number (allowed 1..64 or unbounded)'],
    ['2.5', 'queue=2.5 is not a whole number (allowed 1..64 or unbounded)'],
  ])('refuses %s, naming what is allowed', (raw, message) => {
    expect(rangeValue(queue, raw)).toEqual({ error: message });
  });

  test('refuses a value between steps, naming the steps', () => {
    const us = { ...queue, id: 'us', min: 1000, max: 50000, step: 1000, unbounded: false };
    expect(rangeValue(us, '1500')).toEqual({
      error: 'us=1500 is between steps (allowed 1000..50000 in steps of 1000)',
    });
    expect(rangeValue(us, '0')).toEqual({
      error: 'us=0 is out of range (allowed 1000..50000 in steps of 1000)',
    });
    expect(rangeValue(us, '2000')).toEqual({ value: 2000 });
    expect(rangeValue(us, 50000)).toEqual({ value: 50000 });
  });

  test.each([
    [
      { min: 0, max: 10, step: 4, default: 4 },
      'controls[0].max: 10 is between steps (0..10 in steps of 4)',
    ],
    [
      { min: 0, max: 10, step: 5, default: 3 },
      'controls[0].default: the default 3 is between steps (0..10 in steps of 5)',
    ],
  ])('refuses a lesson control whose max or default is between steps: %o', (range, message) => {
    expect(() =>
      readControl(
        { id: 'p', label: 'P', targets: [], ...range },
        'controls[0]',
        parseExperimentSpec(source),
      ),
    ).toThrow(message);
  });

  test('only a control that allows it takes unbounded', () => {
    expect(rangeValue(queue, UNBOUNDED)).toEqual({ value: UNBOUNDED });
    expect(rangeValue(npTh, UNBOUNDED)).toEqual({
      error: 'npTh=unbounded is not a whole number (allowed 4..64)',
    });
  });
});

describe('lesson parameters', () => {
  test('have their own default and change no spec field', () => {
    expect(tpc).toMatchObject({ targets: [], defaultValue: 4 });
    expect(applyControls(source, controls, { tpc: 8 })).toEqual(
      applyControls(source, controls, {}),
    );
  });

  test('need a default, and a control with targets takes none', () => {
    expect(() =>
      readControl({ id: 'x', label: 'x', min: 1, max: 2 }, 'controls[0]', experiment),
    ).toThrow('controls[0].targets: missing (required)');
    expect(() =>
      readControl(
        { id: 'x', label: 'x', targets: ['items'], min: 1, max: 20, default: 2 },
        'controls[0]',
        experiment,
      ),
    ).toThrow(
      "controls[0].default: not allowed on a control with targets (its default is the experiment's value)",
    );
    expect(() =>
      readControl({ id: 'x', label: 'x', min: 1, max: 2, default: 9 }, 'controls[0]', experiment),
    ).toThrow('controls[0].default: 9 is out of range (allowed 1..2)');
  });
});
