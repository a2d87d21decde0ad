// A paper row's verdict and scale: required on every row, checked at load against the row's own
// numbers (agrees within its tolerance, bound on its side), and each kind's own field required
// (differs: a one-sentence reason; fitted: the parameter set from the figure). A row labelled
// agrees that no longer agrees fails the build naming the lesson, the row and both numbers.
import { expect, test } from 'vitest';
import { loadLessons, parseLesson } from '../../../src/lessons/loadLessons';
import { percentOff, VERDICTS } from '../../../src/lessons/paperVerdict';

// bound.slowest-stage is the model's 1/400 µs = 2500 items/s: exact numbers for the checks.
const front = `title: Verdicts
summary: One stage and its bound.
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

const row = (fields: string) =>
  parseLesson(
    'lessons/04-verdicts.md',
    `---\n${front}\npaper:\n  - { id: cap, source: '000', where: Eq. 9, claim: c, unit: items/s, ${fields} }\n---\n::paper\n`,
  ).paper[0];

test('agrees within its tolerance: the check and its numbers travel with the row', () => {
  const r = row(
    'paper: 2400, twin: bound.slowest-stage, verdict: agrees, tolerance: 5%, scale: paper',
  );
  expect(r.verdict).toEqual({
    verdict: 'agrees',
    tolerancePercent: 5,
    reason: null,
    fitted: null,
    scale: 'paper',
  });
  expect(r.verdictEvidence).toBe(
    "bound.slowest-stage = 2500 items/s is 4.2% from the paper's 2400 (tolerance 5%)",
  );
});

test('a row labelled agrees that no longer agrees fails, naming the lesson, the row and both numbers', () => {
  expect(() =>
    row('paper: 2000, twin: bound.slowest-stage, verdict: agrees, tolerance: 5%, scale: paper'),
  ).toThrow(
    /^lessons\/04-verdicts\.md: paper\[0\]\.verdict: "cap" is labelled agrees within 5% of the paper's 2000, but bound\.slowest-stage = 2500 items\/s is 25\.0% from it$/,
  );
});

test('a fitted row may state a tolerance, and is held to it', () => {
  const fit = 'verdict: fitted, fitted: the work was set from this figure, scale: paper';
  expect(row(`paper: 2500, twin: bound.slowest-stage, ${fit}`).verdictEvidence).toBeNull();
  expect(
    row(`paper: 2500, twin: bound.slowest-stage, ${fit}, tolerance: 0%`).verdict,
  ).toMatchObject({
    verdict: 'fitted',
    fitted: 'the work was set from this figure',
    tolerancePercent: 0,
  });
  expect(() => row(`paper: 2600, twin: bound.slowest-stage, ${fit}, tolerance: 1%`)).toThrow(
    /"cap" is labelled fitted within 1% of the paper's 2600, but .* is 3\.8% from it/,
  );
});

test('bound: ours must lie on the side the paper states', () => {
  const r = row(
    'paper: 2000, bound: above, twin: bound.slowest-stage, verdict: bound, scale: lesson',
  );
  expect(r.verdictEvidence).toBe("bound.slowest-stage = 2500 items/s lies above the paper's 2000");
  expect(() =>
    row('paper: 2000, bound: below, twin: bound.slowest-stage, verdict: bound, scale: lesson'),
  ).toThrow(/"cap" is labelled bound \(ours below 2000\), but bound\.slowest-stage = 2500/);
});

test.each([
  [
    'paper: 1, twin: twin.time, scale: paper',
    /paper\[0\]\.verdict: missing \(required: agrees, differs, fitted, bound\)/,
  ],
  [
    'paper: 1, twin: twin.time, verdict: differs, reason: r',
    /paper\[0\]\.scale: missing \(required: paper or lesson/,
  ],
  [
    'paper: 1, twin: twin.time, verdict: close, scale: paper',
    /paper\[0\]\.verdict: "close" is not one of agrees \| differs \| fitted \| bound/,
  ],
  [
    'paper: 1, twin: twin.time, verdict: differs, reason: r, scale: theirs',
    /paper\[0\]\.scale: "theirs" is not one of paper \| lesson/,
  ],
  [
    'paper: 1, twin: twin.time, verdict: agrees, scale: paper',
    /paper\[0\]\.tolerance: missing \(required for agrees: e\.g\. 5%\)/,
  ],
  [
    'paper: 1, twin: twin.time, verdict: agrees, tolerance: 5, scale: paper',
    /paper\[0\]\.tolerance: 5 is not a percentage 0%\.\.100%/,
  ],
  [
    'paper: 1, twin: twin.time, verdict: differs, scale: paper',
    /paper\[0\]\.reason: missing \(required for differs\)/,
  ],
  [
    'paper: 1, twin: twin.time, verdict: fitted, scale: paper',
    /paper\[0\]\.fitted: missing \(required for fitted\)/,
  ],
  [
    'paper: 1, twin: twin.time, verdict: differs, reason: r, tolerance: 5%, scale: paper',
    /paper\[0\]\.tolerance: is for verdict agrees or fitted, not differs/,
  ],
  [
    'paper: 1, twin: twin.time, verdict: agrees, tolerance: 5%, reason: r, scale: paper',
    /paper\[0\]\.reason: is for verdict differs, not agrees/,
  ],
  [
    'paper: 1, twin: twin.time, verdict: bound, scale: paper',
    /paper\[0\]\.verdict: bound needs `bound: above\|below`/,
  ],
  [
    'paper: 1, bound: above, twin: twin.time, verdict: agrees, tolerance: 5%, scale: paper',
    /paper\[0\]\.verdict: agrees on a row whose paper figure is only a bound/,
  ],
  [
    'paper: 1, twin: twin.time, verdict: differs, reason: It is slow. The cores differ, scale: paper',
    /paper\[0\]\.reason: "It is slow\. The cores differ" must be one sentence/,
  ],
  [
    'paper: 1, measured: true, verdict: agrees, tolerance: 5%, scale: lesson',
    /"cap" is labelled agrees, which the build checks, but the row has no value of ours the build computes/,
  ],
])('%s', (fields, message) => {
  expect(() => row(fields)).toThrow(message);
});

test('one sentence may hold abbreviations and section marks', () => {
  const r = row(
    'paper: 1, twin: twin.time, verdict: differs, reason: "the paper (Eq. 3, §2.3) counts e.g. queue slots", scale: paper',
  );
  expect(r.verdict.reason).toBe('the paper (Eq. 3, §2.3) counts e.g. queue slots');
});

test('percentOff is against the paper figure', () => {
  expect(percentOff(110, 100)).toBeCloseTo(10, 12);
  expect(percentOff(90, 100)).toBeCloseTo(10, 12);
  expect(percentOff(0, 0)).toBe(0);
  expect(percentOff(1, 0)).toBe(Infinity);
});

test("every lesson's paper row carries a verdict and a scale; no fitted or differing row claims agreement", () => {
  const rows = loadLessons('lessons').flatMap((l) => l.paper);
  expect(rows.length).toBeGreaterThan(20);
  for (const r of rows) {
    expect(VERDICTS).toContain(r.verdict.verdict);
    expect(['paper', 'lesson']).toContain(r.verdict.scale);
    if (r.verdict.verdict === 'fitted') expect(r.verdict.fitted).toBeTruthy();
    if (r.verdict.verdict === 'differs') expect(r.verdict.reason).toBeTruthy();
    if (r.verdict.verdict === 'agrees') expect(r.verdictEvidence).toMatch(/tolerance/);
  }
});
