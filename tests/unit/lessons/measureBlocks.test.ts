// Measurement blocks in a lesson's front matter (src/lessons/measureBlocks.ts): a good block
// parses with its series' units; each mistake — an unknown quantity, source, control, value or
// series, a block not placed or placed twice — fails naming the lesson, the block and what is
// allowed.
import { describe, expect, test } from 'vitest';
import { parseLesson } from '../../../src/lessons/loadLessons';

const experiment = `experiment:
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
  - id: layout
    label: Layout
    choices:
      - { value: three, label: three stages, set: {} }
      - value: two
        label: two stages
        set:
          stages:
            - { name: input, mode: serial-in-order, threads: 1, service: { kind: fixed, us: 10 } }
            - { name: work, mode: parallel, threads: 2, service: { kind: exponential, meanUs: 40 } }`;

function lesson(measure: string, body = '::measure{id=sweep}') {
  return `---\ntitle: Bubbles\nsummary: Where pipelines wait.\n${experiment}\nmodels: [case1]\nmeasure:\n${measure}\n---\n${body}\n`;
}

const good = `  - id: sweep
    title: Throughput against the workers
    show: chart
    over: threads
    values: [1, 2, 4]
    at: { queue: 8 }
    series: [measured.throughput, twin.throughput, model.case1, bound.slowest-stage]`;

const parse = (text: string) => parseLesson('lessons/01-bubbles.md', text);

describe('a good block', () => {
  test('parses: over a thread control, its values, at, series with their units, placed once', () => {
    const l = parse(lesson(good));
    const [b] = l.measure;
    expect(b).toMatchObject({
      id: 'sweep',
      show: 'chart',
      over: { kind: 'control', id: 'threads', label: 'Workers', threads: true },
      values: [1, 2, 4],
      at: { queue: 8 },
    });
    expect(b.series.map((s) => [s.of.source, s.of.quantity, s.unit])).toEqual([
      ['measured', 'throughput', 'items/s'],
      ['twin', 'throughput', 'items/s'],
      ['model', 'case1', 'items/s'],
      ['bound', 'slowest-stage', 'items/s'],
    ]);
    expect(l.blocks).toContainEqual({ kind: 'component', name: 'measure', block: 'sweep' });
  });

  test('ratios, labels, settings of a choice and a table over a choice', () => {
    const l = parse(
      lesson(`  - id: sweep
    title: Two layouts
    show: table
    over: layout
    series:
      - { of: 'twin.time[threads=1] / twin.time', label: Speed-up }
      - measured.time`),
    );
    const [b] = l.measure;
    expect(b.values).toEqual(['three', 'two']);
    expect(b.series[0]).toMatchObject({ label: 'Speed-up', unit: 'ratio' });
    expect(b.series[0].of.set).toEqual({ threads: 1 });
    expect(b.series[0].over?.quantity).toBe('time');
  });
});

describe('each mistake fails naming the lesson, the block and the allowed names', () => {
  const fails = (measure: string, ...parts: RegExp[]) => {
    let message = '';
    try {
      parse(lesson(measure));
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/^lessons\/01-bubbles\.md: measure\[0\] \(sweep\)/);
    for (const p of parts) expect(message).toMatch(p);
  };

  test('an unknown quantity names the known ones', () =>
    fails(
      good.replace('model.case1', 'model.nonsense'),
      /series\[2\]/,
      /unknown quantity model\.nonsense/,
      /model\.<case1\|case1-per-server\|case2/,
      /bound\.slowest-stage\)/,
    ));

  test('a run series with no run behind it names the ones a run shows', () =>
    fails(
      good.replace('twin.throughput,', 'twin.busy.work,'),
      /twin\.busy\.work is not a series a run shows/,
      /measured\.first-out/,
    ));

  test("another kind's quantity names this kind's", () =>
    fails(
      good.replace('twin.throughput,', 'twin.time.serial,'),
      /twin\.time\.serial is not a quantity of the static runtime \(its quantities: .*twin\.throughput/,
    ));

  test('an unknown source names the sources', () =>
    fails(
      good.replace('twin.throughput,', 'guess.throughput,'),
      /unknown source guess \(allowed: measured, twin, model, bound, sizing\)/,
    ));

  test('an unknown over names the controls and the spec fields', () =>
    fails(
      good.replace('over: threads', 'over: workers'),
      /over: workers is not a control of this lesson or a spec field \(controls: threads, queue, layout; fields: threads, tokens/,
    ));

  test('a value out of the control range is named with the range', () =>
    fails(good.replace('[1, 2, 4]', '[1, 2, 40]'), /values\[2\]/, /allowed 1\.\.8/));

  test('a control in a series bracket that the lesson lacks', () =>
    fails(
      good.replace('twin.throughput,', "'twin.throughput[tokens=4]',"),
      /tokens is not a control of this lesson \(known: threads, queue, layout\)/,
    ));

  test('an at naming an unknown control names the allowed ones', () =>
    fails(good.replace('at: { queue: 8 }', 'at: { tokens: 8 }'), /at\.tokens/, /queue, layout/));

  test('a chart over a choice of words says to show a table', () =>
    fails(
      good.replace('over: threads', 'over: layout').replace('    values: [1, 2, 4]\n', ''),
      /a chart needs numbers along layout/,
    ));

  test('a block of models alone measures nothing', () =>
    fails(
      good.replace(
        '[measured.throughput, twin.throughput, model.case1, bound.slowest-stage]',
        '[model.case1]',
      ),
      /measures nothing/,
    ));

  test('a report to a paper row the lesson lacks names the rows it has (none)', () =>
    fails(
      `${good}\n    report: { speedup: 'measured.throughput[threads=4] / measured.throughput[threads=1]' }`,
      /report\.speedup/,
      /none/,
    ));
});

describe('placing blocks', () => {
  const placeFails = (body: string, re: RegExp) =>
    expect(() => parse(lesson(good, body))).toThrow(re);
  test('a block not placed', () =>
    placeFails(
      '::experiment',
      /measure block sweep is not placed in the prose \(write a line ::measure\{id=sweep\}\)/,
    ));
  test('a block placed twice', () =>
    placeFails(
      '::measure{id=sweep}\n\n::measure{id=sweep}',
      /::measure\{id=sweep\} is placed twice/,
    ));
  test('an unknown block names the blocks', () =>
    placeFails(
      '::measure{id=sweep}\n\n::measure{id=other}',
      /no such block in measure \(blocks: sweep\)/,
    ));
  test('::measure without an id', () => placeFails('::measure', /::measure names its block/));
});
