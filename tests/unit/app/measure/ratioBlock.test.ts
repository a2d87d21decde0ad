// A measurement block over a ratio quantity (measureQuantities.ts: `tp-over-tr`, the barrier
// runtime's time packed over its time with one thread per core): planned as one ratio step per
// value and engine (numerator the spec, denominator its thread reduction), measured only where
// both sides may run on the page's engine, read as the ratio point's median and spread; and named
// with the kinds that have it when a lesson of another kind asks for it.
import { describe, expect, test } from 'vitest';
import { cellsOf } from '../../../../src/app/measure/blockView';
import { planBlock, valuesOf } from '../../../../src/app/measure/planBlock';
import { parseLesson } from '../../../../src/lessons/loadLessons';
import type { ExperimentSpec } from '../../../../src/spec/experimentSpec';
import { BARRIER_FRONT } from '../../lessons/barrierFront';

const barrier = BARRIER_FRONT;

const block = `  - id: b
    title: TP / TR against the cores
    show: chart
    over: cores
    values: [1, 2, 4]
    series: [measured.tp-over-tr, twin.tp-over-tr, bound.packing]`;

const lessonWith = (front: string, measure: string) =>
  parseLesson(
    'lessons/07-t.md',
    `---\ntitle: T\nsummary: S\n${front}\nmeasure:\n${measure}\n---\n::measure{id=b}\n`,
  );

/** Packed budgets above two cores run on the twin (as the barrier runtime's engine rule). */
const twoCores = (spec: ExperimentSpec) =>
  spec.schedule === 'packed' && (spec.cores ?? 1) > 2 ? 'simulation' : 'threads';

describe('a ratio quantity over the cores', () => {
  const lesson = lessonWith(barrier, block);
  const [b] = lesson.measure;
  const steps = planBlock(lesson, b, { values: {}, engineOf: twoCores, cores: 2 });

  test('parses with the ratio unit, one chart with the bound', () => {
    expect(b.series.map((s) => s.unit)).toEqual(['ratio', 'ratio', 'ratio']);
  });

  test('one ratio step per value and engine: the spec over its thread reduction', () => {
    expect(steps.map((s) => [s.kind, s.engine, s.fills.map((f) => f.as).join(' ')])).toEqual([
      ['ratio', 'threads', 'measured'],
      ['ratio', 'simulation', 'twin'],
      ['ratio', 'threads', 'measured'],
      ['ratio', 'simulation', 'twin'],
      // 4 packed cores do not fit two: the twin's run serves both series.
      ['ratio', 'simulation', 'measured twin'],
    ]);
    for (const s of steps) {
      if (s.kind !== 'ratio') throw new Error('a ratio step');
      expect(s.of.threads).toBe(3);
      expect(s.over.threads).toBe(Math.min(3, s.of.cores!));
      expect(s.over.cores).toBe(s.of.cores);
    }
  });

  test('repeats: runs per point on each side, both engines', () => {
    const once = planBlock(
      lesson,
      { ...b, repeats: 1 },
      { values: {}, engineOf: twoCores, cores: 2 },
    );
    expect(once.map((s) => ('repeats' in s ? s.repeats : null))).toEqual([1, 1, 1, 1, 1]);
    expect(steps.every((s) => !('repeats' in s) || s.repeats === undefined)).toBe(true);
  });

  test('a ratio whose denominator may not run on threads is not measured there', () => {
    // A page whose engine takes 3 threads but not 2 (contrived): both sides must share one.
    const odd = (spec: ExperimentSpec) => (spec.threads === 3 ? 'threads' : 'simulation');
    const planned = planBlock(lesson, b, { values: {}, engineOf: odd, cores: 2 });
    expect(
      planned.filter((s) => s.engine === 'threads').map((s) => ('x' in s ? s.x : null)),
    ).toEqual([4]);
  });

  test('the ratio point gives the series its median and spread, measured and simulated', () => {
    const values = steps.flatMap((s) =>
      valuesOf(s, { x: 'x' in s ? s.x : 0, y: 1.5, min: 1.4, max: 1.6, source: s.engine }),
    );
    const cells = cellsOf(lesson, b, {}, values);
    expect(cells.s0.map((c) => c && [c.kind, c.y, c.min, c.max])).toEqual([
      ['measured', 1.5, 1.4, 1.6],
      ['measured', 1.5, 1.4, 1.6],
      ['simulated', 1.5, 1.4, 1.6],
    ]);
    // The bound: ⌈3/C⌉·C/3.
    expect(cells.s2.map((c) => c?.y)).toEqual([1, 4 / 3, 1]);
  });
});

test('a lesson of another kind naming tp-over-tr fails naming its own quantities', () => {
  const staticLesson = `experiment:
  runtime: static
  stages:
    - { name: work, mode: parallel, threads: 2, service: { kind: fixed, us: 40 } }
  queue: { kind: cached-spsc, capacity: 4 }
  items: 100
  seed: 1
controls:
  - { id: threads, label: Workers, targets: ["stages[0].threads"], min: 1, max: 8 }
models: [case1]`;
  expect(() =>
    lessonWith(
      staticLesson,
      `  - id: b
    title: T
    show: chart
    over: threads
    values: [1, 2]
    series: [measured.tp-over-tr]`,
    ),
  ).toThrow(
    /^lessons\/07-t\.md: measure\[0\] \(b\)\.series\[0\]: .*tp-over-tr is not a quantity of the static runtime \(its quantities: .*twin\.throughput/,
  );
});
