// Which runs a measurement block submits (src/app/measure/planBlock.ts) for its `over`, `values`,
// `at` and series: measured on the page's engine up to the cores, the twin beside; one run where
// the page cannot measure; a run shared by every series that reads it; runs or points as the
// quantities need; and what each finished run gives each series (blockView.ts).
import { describe, expect, test } from 'vitest';
import { cellsOf, chartsOf, reportValue } from '../../../../src/app/measure/blockView';
import { planBlock, valuesOf, type BlockStep } from '../../../../src/app/measure/planBlock';
import type { FinishedRun } from '../../../../src/engine/planner/measure';
import { parseLesson } from '../../../../src/lessons/loadLessons';
import type { ExperimentSpec } from '../../../../src/spec/experimentSpec';

const pipeline = `experiment:
  runtime: static
  stages:
    - { name: input, mode: serial-in-order, threads: 1, service: { kind: fixed, us: 10 } }
    - { name: work, mode: parallel, threads: 2, service: { kind: exponential, meanUs: 40 } }
    - { name: output, mode: serial-in-order, threads: 1, service: { kind: fixed, us: 10 } }
  queue: { kind: cached-spsc, capacity: 4 }
  items: 1000
  seed: 7
controls:
  - { id: threads, label: Workers, targets: ["stages[1].threads"], min: 1, max: 8 }
  - { id: queue, label: Queue size, targets: [queue.capacity], min: 1, max: 64 }
models: [case1]`;

const twoStage = `experiment:
  runtime: two-stage-output
  stages:
    - { name: format, mode: parallel, threads: 2, service: { kind: exponential, meanUs: 8 } }
    - { name: write, mode: serial-in-order, service: { kind: fixed, us: 2 } }
  batchItems: 64
  items: 20000
  seed: 2
controls:
  - { id: formatters, label: Formatting threads, targets: ['stages[0].threads'], min: 1, max: 16 }
  - { id: batch, label: Batch size, targets: [batchItems], min: 1, max: 4096 }
models: [lambda-eu]`;

function lessonWith(front: string, measure: string) {
  const text = `---\ntitle: T\nsummary: S\n${front}\nmeasure:\n${measure}\n---\n::measure{id=b}\n`;
  return parseLesson('lessons/01-t.md', text);
}

const threadsBelow = (spec: ExperimentSpec) => (spec.threads <= 64 ? 'threads' : 'simulation');
const onThreads = { values: {}, engineOf: threadsBelow, cores: 2 } as const;
const notIsolated = { values: {}, engineOf: () => 'simulation' as const, cores: 2 };
const what = (steps: BlockStep[]) =>
  steps.map((s) => [s.kind, s.engine, s.fills.map((f) => `${f.as}@${f.at}`).join(' ')]);

describe('a chart over a thread count', () => {
  const lesson = lessonWith(
    pipeline,
    `  - id: b
    title: Throughput against the workers
    show: chart
    over: threads
    values: [1, 2, 4]
    at: { queue: 8 }
    series: [measured.throughput, twin.throughput, model.case1]`,
  );
  const [block] = lesson.measure;

  test('measures up to the cores, the twin beside; beyond, one twin run serves both', () => {
    const steps = planBlock(lesson, block, onThreads);
    expect(what(steps)).toEqual([
      ['point', 'threads', 'measured@0'],
      ['point', 'simulation', 'twin@0'],
      ['point', 'threads', 'measured@1'],
      ['point', 'simulation', 'twin@1'],
      ['point', 'simulation', 'measured@2 twin@2'],
    ]);
    // Each run at its value of `over`, with the block's `at` and the page's values under them.
    expect(steps.map((s) => s.spec.stages[1].threads)).toEqual([1, 1, 2, 2, 4]);
    expect(steps.every((s) => s.spec.queue?.capacity === 8)).toBe(true);
    expect(steps.map((s) => s.label)).toContain('threads = 4, simulated');
  });

  test("measureUpTo measures past the cores; the page's values fill the controls not fixed", () => {
    const steps = planBlock(
      lesson,
      { ...block, measureUpTo: 4 },
      { ...onThreads, values: { queue: 2 } },
    );
    expect(
      steps.filter((s) => s.engine === 'threads').map((s) => s.spec.stages[1].threads),
    ).toEqual([1, 2, 4]);
    // `at` wins over the page's value of the same control.
    expect(steps[0].spec.queue?.capacity).toBe(8);
  });

  test('on a page without real threads every value is one simulated run for both series', () => {
    expect(what(planBlock(lesson, block, notIsolated))).toEqual([
      ['point', 'simulation', 'measured@0 twin@0'],
      ['point', 'simulation', 'measured@1 twin@1'],
      ['point', 'simulation', 'measured@2 twin@2'],
    ]);
  });

  test('measuredItems sizes measured points from trial runs, the twin keeps the items', () => {
    const steps = planBlock(lesson, { ...block, measuredItems: 1_000_000, items: 500 }, onThreads);
    const measured = steps.find((s) => s.engine === 'threads')!;
    const twin = steps.find((s) => s.engine === 'simulation')!;
    expect(measured).toMatchObject({
      kind: 'point',
      sizeByTrial: true,
      spec: { items: 1_000_000 },
    });
    expect(twin.spec.items).toBe(500);
    expect('sizeByTrial' in twin && twin.sizeByTrial).toBeFalsy();
  });

  test('a model series runs nothing and is computed at every value', () => {
    const cells = cellsOf(lesson, block, {}, []);
    expect(cells.s2.every((c) => c !== null && c.kind === 'model' && c.y > 0)).toBe(true);
    expect(cells.s0).toEqual([null, null, null]);
  });
});

describe('a table of two-stage variants with a ratio', () => {
  const lesson = lessonWith(
    twoStage,
    `  - id: b
    title: Three ways to write
    show: table
    over: variant
    values: [serial, dual-thread, two-stage]
    items: 5000
    series:
      - measured.time
      - { of: 'measured.time[variant=serial] / measured.time', label: Speed-up }
      - twin.time
      - measured.first-out`,
  );
  const [block] = lesson.measure;
  const steps = planBlock(lesson, block, onThreads);

  test('one run per variant and engine: the serial run also fills every row’s denominator', () => {
    expect(what(steps)).toEqual([
      ['run', 'threads', 'measured@0 measured@0 measured@0 measured@0 measured@1 measured@2'],
      ['run', 'simulation', 'twin@0'],
      ['run', 'threads', 'measured@1 measured@1 measured@1'],
      ['run', 'simulation', 'twin@1'],
      ['run', 'threads', 'measured@2 measured@2 measured@2'],
      ['run', 'simulation', 'twin@2'],
    ]);
    expect(steps.map((s) => s.spec.variant)).toEqual([
      'serial',
      'serial',
      'dual-thread',
      'dual-thread',
      'two-stage',
      'two-stage',
    ]);
    expect(steps.every((s) => s.spec.items === 5000)).toBe(true);
  });

  test('finished runs give times, first-out and the speed-up; a report reads measured values', () => {
    const run = (elapsedUs: number, firstOutUs: number | null): FinishedRun => ({
      summary: { items: 5000, completed: 5000, elapsedUs, itemsPerSec: 5000 / (elapsedUs / 1e6) },
      output: null,
      firstOutUs,
      inSystem: null,
      source: 'threads',
    });
    const results = [
      ...valuesOf(steps[0], run(40_000, 800)),
      ...valuesOf(steps[2], run(32_000, null)),
      ...valuesOf(steps[4], run(10_000, 1200)),
    ];
    const cells = cellsOf(lesson, block, {}, results);
    expect(cells.s0.map((c) => c?.y)).toEqual([0.04, 0.032, 0.01]);
    expect(cells.s1.map((c) => c?.y)).toEqual([1, 1.25, 4]);
    expect(cells.s1.every((c) => c?.kind === 'measured')).toBe(true);
    // No first item seen on the dual-thread run: nothing shown, not a zero.
    expect(cells.s3.map((c) => c?.y ?? null)).toEqual([0.8, null, 1.2]);
    expect(cells.s2).toEqual([null, null, null]);
    const serial = reportValue(block, results, {
      ...block.series[0].of,
      set: { variant: 'serial' },
    });
    expect(serial).toBe(0.04);
  });
});

describe('runs a run-kind quantity needs', () => {
  test('first-out and throughput over the batch size share one run per batch and engine', () => {
    const lesson = lessonWith(
      twoStage,
      `  - id: b
    title: Batches
    show: chart
    over: batch
    values: [1, 64]
    log: [x, y ms]
    series: [measured.first-out, twin.first-out, bound.first-out, measured.throughput, twin.throughput]`,
    );
    const steps = planBlock(lesson, lesson.measure[0], onThreads);
    expect(what(steps)).toEqual([
      ['run', 'threads', 'measured@0 measured@0'],
      ['run', 'simulation', 'twin@0 twin@0'],
      ['run', 'threads', 'measured@1 measured@1'],
      ['run', 'simulation', 'twin@1 twin@1'],
    ]);
    expect(steps.map((s) => s.spec.batchItems)).toEqual([1, 1, 64, 64]);
    // The bound: one batch formatted and written, B × (8 + 2) µs, in ms.
    const bound = cellsOf(lesson, lesson.measure[0], {}, []).s2.map((c) => c?.y);
    expect(bound).toEqual([0.01, 0.64]);
  });
});

describe('what a chart draws', () => {
  test('a measured series the twin served is drawn once, as the twin series’ point', () => {
    const lesson = lessonWith(
      pipeline,
      `  - id: b
    title: Throughput against the workers
    show: chart
    over: threads
    values: [1, 2]
    series: [measured.throughput, twin.throughput]`,
    );
    const [block] = lesson.measure;
    const steps = planBlock(lesson, block, notIsolated);
    const results = steps.flatMap((s) => valuesOf(s, { x: 0, y: 100, source: 'simulation' }));
    const [chart] = chartsOf(block, cellsOf(lesson, block, {}, results), undefined);
    expect(chart.view === 'model' && chart.props.points.map((p) => [p.x, p.source])).toEqual([
      [1, 'simulation'],
      [2, 'simulation'],
    ]);
  });
});
