// Paper rows in lesson front matter: the twin's value is computed at load (a quantity, or the ratio
// of two at the row's control values), a bench ratio from the committed queue benchmark; bad rows
// name the field; rows need a ::paper to show them.
import { expect, test } from 'vitest';
import { parseLesson } from '../../../src/lessons/loadLessons';
import { benchRatio } from '../../../src/lessons/queueBench';

const front = `title: Layouts
summary: One stage or two.
experiment:
  runtime: static
  stages:
    - { name: input, mode: serial-in-order, threads: 1, service: { kind: fixed, us: 100 } }
    - { name: work, mode: parallel, threads: 1, service: { kind: fixed, us: 400 } }
  queue: { kind: cached-spsc, capacity: 4 }
  items: 200
  seed: 3
controls:
  - { id: workers, label: Workers, targets: ["stages[1].threads"], min: 1, max: 8 }`;

/** A row that states no verdict of its own gets one the build does not check against its
 * numbers (differs, with a reason), so each test looks at the field it is about. */
const withVerdict = (rows: string) =>
  rows
    .replace(/^(\s*- \{ )(?![^\n]*verdict:)/gm, '$1verdict: differs, reason: r, scale: lesson, ')
    .replace(
      /^(\s*- )(id: [^\n]*)$/gm,
      '$1$2\n    verdict: differs\n    reason: r\n    scale: lesson',
    );

const lesson = (rows: string, body = '::paper') =>
  parseLesson('lessons/04-paper.md', `---\n${front}\npaper:\n${withVerdict(rows)}\n---\n${body}\n`);

test('a ratio of twin quantities at the paper scale', () => {
  const l = lesson(`  - id: four-workers
    source: '000'
    where: Fig. 6a
    claim: four workers are faster
    unit: ratio
    paper: 3.9
    twin: twin.time[workers=1] / twin.time
    at: { workers: 4 }
    measured: true`);
  expect(l.paper).toHaveLength(1);
  const r = l.paper[0];
  expect(r).toMatchObject({
    id: 'four-workers',
    source: '000',
    unit: 'ratio',
    paperValue: 3.9,
    measured: true,
  });
  expect(r.twinValue).toBeGreaterThan(2.5);
  expect(r.twinValue).toBeLessThan(4.1);
  expect(r.twinEvidence).toMatch(/^twin\.time\[workers=1\] = .* s \/ twin\.time = .* s$/);
});

test("a row the twin takes no part in is the models' (kind model), one it does the twin's", () => {
  const l =
    lesson(`  - { id: m, source: '000', where: Eq. 9, claim: c, unit: items/s, paper: 10, twin: bound.slowest-stage }
  - { id: t, source: '000', where: Eq. 9, claim: c, unit: ratio, paper: 1, twin: twin.throughput / bound.slowest-stage }`);
  expect(l.paper.map((r) => r.twinKind)).toEqual(['model', 'simulated']);
  expect(l.paper[0].twinValue).toBeCloseTo(1e6 / 400, 6);
});

test('an unquoted 000 names the same paper', () => {
  const l = lesson(
    `  - { id: a, source: 000, where: Eq. 3, claim: c, unit: items/s, paper: 10, twin: twin.throughput }`,
  );
  expect(l.paper[0].source).toBe('000');
});

test('a ratio from the committed queue benchmark, with its date as evidence', () => {
  const l = lesson(
    `  - { id: a, source: '001', where: Fig. 3, claim: c, unit: ratio, paper: 2.3, bench: native comm-2/batch / comm-2/vyukov-mpmc }`,
  );
  const r = l.paper[0];
  const expected = benchRatio('native', 'comm-2/batch', 'comm-2/vyukov-mpmc');
  expect(r.benchValue).toBe(expected.ratio);
  expect(r.benchTarget).toBe('native');
  expect(r.benchEvidence).toBe(expected.evidence);
  expect(r.benchEvidence).toMatch(/^comm-2\/batch \/ comm-2\/vyukov-mpmc: .*native, \d{4}-/);
  expect(r.twinValue).toBeNull();
});

test.each([
  [
    `{ id: a, source: '000', where: w, claim: c, unit: ratio, paper: 1, bench: native comm-2/batch }`,
    /paper\[0\]\.bench: "native comm-2\/batch" must read <target> <row key> \/ <row key>/,
  ],
  [
    `{ id: a, source: '000', where: w, claim: c, unit: ratio, paper: 1, bench: arm comm-2/batch / comm-2/mutex }`,
    /paper\[0\]\.bench: "arm" is not one of native \| wasm-node \| wasm-chromium/,
  ],
  [
    `{ id: a, source: '000', where: w, claim: c, unit: ratio, paper: 1, bench: native comm-2/nope / comm-2/mutex }`,
    /queues-native\.json has no row comm-2\/nope/,
  ],
])('bench: %s', (row, message) => {
  expect(() => lesson(`  - ${row}`)).toThrow(message);
});

test.each([
  [
    `{ id: a, source: '009', where: w, claim: c, unit: ratio, paper: 1, twin: twin.time }`,
    /paper\[0\]\.source: "009" is not one of 000 \| 001/,
  ],
  [
    `{ id: a, source: '000', where: w, claim: c, unit: parsecs, paper: 1, twin: twin.time }`,
    /paper\[0\]\.unit: "parsecs" is not one of ratio/,
  ],
  [
    `{ id: a, source: '000', where: w, claim: c, unit: ratio, paper: 1 }`,
    /paper\[0\]: needs ours: a twin value, or measured: true/,
  ],
  [
    `{ id: a, source: '000', where: w, claim: c, unit: ratio, paper: 1, twin: twin.speed }`,
    /paper\[0\]\.twin: unknown quantity twin\.speed/,
  ],
  [
    `{ id: a, source: '000', where: w, claim: c, unit: ratio, paper: 1, twin: twin.time, at: { workers: 99 } }`,
    /paper\[0\]\.at\.workers: workers=99 is out of range \(allowed 1\.\.8\)/,
  ],
  [
    `{ id: a, source: '000', where: w, claim: c, unit: ratio, paper: 1, measured: yes }`,
    /paper\[0\]\.measured: yes is not true or false/,
  ],
])('%s', (row, message) => {
  expect(() => lesson(`  - ${row}`)).toThrow(message);
});

test('rows need a ::paper in the prose, and ::paper needs rows', () => {
  const row = `  - { id: a, source: '000', where: w, claim: c, unit: s, paper: 1, twin: twin.time }`;
  expect(() => lesson(row, 'No table here.')).toThrow(
    /04-paper\.md: paper: has rows, but the prose places no ::paper component/,
  );
  expect(() => parseLesson('lessons/04-paper.md', `---\n${front}\n---\n::paper\n`)).toThrow(
    /04-paper\.md: paper: is missing: the prose places ::paper/,
  );
});

test('a paper that states only a direction gives a bound', () => {
  const row = (bound: string) =>
    lesson(
      `  - { id: a, source: '004', where: Sec. III, claim: c, unit: ratio, paper: 1, bound: ${bound}, twin: twin.time, verdict: differs, reason: r, scale: lesson }`,
    ).paper[0];
  expect(row('above').paperBound).toBe('above');
  expect(row('below').paperBound).toBe('below');
  expect(
    lesson(
      `  - { id: a, source: '004', where: w, claim: c, unit: ratio, paper: 1, twin: twin.time }`,
    ).paper[0].paperBound,
  ).toBeNull();
  expect(() => row('beside')).toThrow(/paper\[0\]\.bound: "beside" is not one of above \| below/);
});
