// Little's law as measurement-block series: measured./twin. in-flight, time-in-system and
// lambda-times-w run one finished run per queue size (not a point of repeats), the twin's run
// gives them from its own start/end events, and a kind whose items cannot be followed (a stage
// that emits several) is refused at build time naming the quantities it has.
import { describe, expect, test } from 'vitest';
import { planBlock, valuesOf } from '../../../../src/app/measure/planBlock';
import { simulateRun } from '../../../../src/engine/planner/measure';
import { parseLesson } from '../../../../src/lessons/loadLessons';

const front = `experiment:
  runtime: static
  stages:
    - { name: read, mode: serial-in-order, threads: 1, service: { kind: fixed, us: 50 } }
    - { name: work, mode: parallel, threads: 1, service: { kind: exponential, meanUs: 400 } }
    - { name: write, mode: serial-in-order, threads: 1, service: { kind: exponential, meanUs: 300 } }
  queue: { kind: cached-spsc, capacity: 4 }
  items: 2000
  seed: 3
controls:
  - { id: queue, label: Queue size, targets: [queue.capacity], min: 1, max: 64 }
models: [case1]`;

const lessonWith = (measure: string, experiment = front) =>
  parseLesson(
    'lessons/01-t.md',
    `---\ntitle: T\nsummary: S\n${experiment}\nmeasure:\n${measure}\n---\n::measure{id=b}\n`,
  );

describe("Little's law series", () => {
  const block = `  - id: b
    title: Items in the system against the queue size
    show: table
    over: queue
    values: [1, 16]
    series: [measured.in-flight, measured.lambda-times-w, measured.time-in-system, twin.in-flight]`;

  test('one finished run per queue size on each engine, filling L, λ·W and W from it', () => {
    const lesson = lessonWith(block);
    const steps = planBlock(lesson, lesson.measure[0], {
      values: {},
      engineOf: () => 'threads',
      cores: 2,
    });
    expect(steps.map((s) => [s.kind, s.engine])).toEqual([
      ['run', 'threads'],
      ['run', 'simulation'],
      ['run', 'threads'],
      ['run', 'simulation'],
    ]);
    expect(steps[0].fills.map((f) => f.measurable.metric)).toEqual([
      'in-flight',
      'lambda-times-w',
      'time-in-system',
    ]);
  });

  test("the twin's run gives L within 3% of λ·W, and more slots hold more items for longer", () => {
    const lesson = lessonWith(block);
    const steps = planBlock(lesson, lesson.measure[0], {
      values: {},
      engineOf: () => 'simulation',
      cores: 2,
    });
    const byAt = steps.map((s) => {
      const values = valuesOf(s, simulateRun(s.spec));
      const y = (series: string) => values.find((v) => v.series === series)!.y!;
      return { L: y('s0'), lw: y('s1'), W: y('s2') };
    });
    for (const { L, lw } of byAt) expect(Math.abs(L - lw)).toBeLessThan(0.03 * L);
    expect(byAt[1].L).toBeGreaterThan(2 * byAt[0].L);
    expect(byAt[1].W).toBeGreaterThan(2 * byAt[0].W);
  });

  test('a pipeline whose stage emits several items is refused at build time, naming the stage', () => {
    const emitting = front.replace(
      '{ name: work, mode: parallel,',
      '{ name: work, mode: parallel, emits: 2,',
    );
    expect(() => lessonWith(block, emitting)).toThrow(
      /measured\.in-flight at queue=1: items in the system: stage work emits several items or lets some bypass/,
    );
  });
});
