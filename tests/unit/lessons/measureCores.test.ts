// Measurement blocks written in the visitor's cores (src/lessons/measureCores.ts): `C+1`, `2C-1`,
// `2C` in values, `at` and term brackets resolve at the visitor's cores, clamped to the control's
// range, values that fall together measured once (the table says what each was written as); the
// build checks the block at several core counts and names the one that fails.
import { describe, expect, test } from 'vitest';
import { parseLesson } from '../../../src/lessons/loadLessons';
import { blockAtCores } from '../../../src/lessons/measureBlocks';
import { atCores, coresValue, usesCores } from '../../../src/lessons/measureCores';
import { BARRIER_FRONT } from './barrierFront';

const front = `${BARRIER_FRONT}
paper:
  - id: tp
    source: '004'
    verdict: bound
    scale: lesson
    where: Sec. III
    claim: TP over TR
    unit: ratio
    paper: 1
    bound: above
    twin: twin.tp-over-tr
    at: { threads: 16, cores: 15, schedule: os }
    measured: true`;

const block = (values: string, report = "tp: 'measured.tp-over-tr[threads=C+1]'") => `  - id: b
    title: TP over TR on your cores
    show: table
    over: threads
    values: ${values}
    at: { cores: C, schedule: os }
    series: [measured.tp-over-tr, 'measured.tp-over-tr[schedule=packed]', bound.packing]
    report:
      ${report}`;

const parse = (measure: string) =>
  parseLesson(
    'lessons/07-t.md',
    `---\ntitle: T\nsummary: S\n${front}\nmeasure:\n${measure}\n---\n::measure{id=b}\n\n::paper\n`,
  );

test('expressions: k·C ± d, clamped to the control', () => {
  expect(coresValue('C', 6)).toBe(6);
  expect(coresValue('2C-1', 6)).toBe(11);
  expect(coresValue('C+1', 6)).toBe(7);
  const threads = { kind: 'range', id: 'threads', max: 32, min: 1 } as never;
  expect(coresValue('2C', 24, threads)).toBe(32);
  expect(usesCores({ values: [1, 2] })).toBe(false);
  expect(usesCores({ values: [1], series: ['measured.time[threads=2C]'] })).toBe(true);
});

describe('a block over the threads at the visitor’s cores', () => {
  const lesson = parse(block('[C+1, 2C-1, 2C]'));
  const [b] = lesson.measure;

  test('the lesson keeps it at 4 cores, with what each value was written as', () => {
    expect(b.values).toEqual([5, 7, 8]);
    expect(b.at).toEqual({ cores: 4, schedule: 'os' });
    expect(b.perCores?.written).toEqual(['C+1', '2C-1', '2C']);
    expect(b.report[0].of).toMatchObject({ set: { threads: 5 } });
  });

  test('the page resolves it at the visitor’s: equal values once, brackets and reports too', () => {
    const two = blockAtCores(b, 2, lesson);
    expect(two.values).toEqual([3, 4]);
    expect(two.perCores?.written).toEqual(['C+1', '2C']);
    expect(two.at.cores).toBe(2);
    expect(two.report[0].of).toMatchObject({ set: { threads: 3 } });
    // 16 cores: 2C is 32 threads, the control's most.
    expect(blockAtCores(b, 16, lesson).values).toEqual([17, 31, 32]);
    // Beyond the cores control's range the budget is its most; beyond the threads', too.
    const many = blockAtCores(b, 40, lesson);
    expect(many.at.cores).toBe(16);
    expect(many.values).toEqual([32]);
  });

  test('a block with no expression is itself', () => {
    const text = block('[3, 4]', "tp: 'measured.tp-over-tr[threads=3]'");
    const plain = parse(text.replace('cores: C', 'cores: 2')).measure[0];
    expect(plain.perCores).toBeUndefined();
    expect(blockAtCores(plain, 8, lesson)).toBe(plain);
  });
});

test('a block that fails at one of the checked core counts names it', () => {
  // A report at C+2 is a value of the block at no core count (its values are C+1 and 2C).
  expect(() => parse(block('[C+1, 2C]', "tp: 'measured.tp-over-tr[threads=C+2]'"))).toThrow(
    /^lessons\/07-t\.md: measure\[0\] \(b\)\.report\.tp: .* must name one of the block's values of threads \(2\) \(with C = 1 cores\)/,
  );
});

test('atCores leaves words alone', () => {
  const { raw } = atCores(
    { over: 'schedule', values: ['os', 'packed'], title: 'C+1 threads' },
    4,
    [],
  );
  expect(raw).toEqual({ over: 'schedule', values: ['os', 'packed'], title: 'C+1 threads' });
});
