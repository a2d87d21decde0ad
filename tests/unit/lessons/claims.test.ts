// Checked claims: a true claim loads with its evidence and marks its sentence; a false one, a bad
// check, an unknown quantity or control, an uncited claim and a citation of no claim each fail the
// lesson naming the file, the claim and the numbers.
import { describe, expect, test } from 'vitest';
import { CLAIM_QUANTITIES, TWIN_BUDGET_ITEM_STAGES } from '../../../src/lessons/claimQuantities';
import { batchTwinSteps } from '../../../src/sim/batchTwin';
import { parseLesson } from '../../../src/lessons/loadLessons';
import { parseExperimentSpec } from '../../../src/spec/experimentSpec';

const front = `title: Bubbles
summary: Where pipelines wait.
experiment:
  runtime: static
  stages:
    - { name: input, mode: serial-in-order, threads: 1, service: { kind: fixed, us: 100 } }
    - { name: work, mode: parallel, threads: 1, service: { kind: fixed, us: 400 } }
    - { name: output, mode: serial-in-order, threads: 1, service: { kind: fixed, us: 100 } }
  queue: { kind: cached-spsc, capacity: 4 }
  items: 200
  seed: 3
controls:
  - { id: workers, label: Workers, targets: ["stages[1].threads"], min: 1, max: 8 }
models: [case1]`;

function lessonWith(claims: string, body = 'The [work stage limits it](claim:c).') {
  return `---\n${front}\nclaims:\n${claims}\n---\n${body}\n`;
}
const parse = (text: string) => parseLesson('lessons/03-claims.md', text);

describe('a true claim', () => {
  test('loads with its evidence, and its sentence is marked', () => {
    const l = parse(
      lessonWith(`  - { id: c, says: work is the bottleneck, check: twin.busy.work > 0.9 }`),
    );
    expect(l.claims).toHaveLength(1);
    expect(l.claims[0].evidence[0]).toMatch(
      /^at the defaults: twin\.busy\.work = 9\d\.\d% > 90\.0%$/,
    );
    const html = l.blocks[0].kind === 'html' ? l.blocks[0].html : '';
    expect(html).toContain('data-claim="c"');
    expect(html).toContain('work stage limits it');
    expect(html).toMatch(/title="Checked when the lesson was built: at the defaults: twin\.busy/);
  });

  test('is checked at every combination of its at values, with brackets and factors', () => {
    const l = parse(
      lessonWith(
        `  - id: c
    says: more workers, more throughput
    at: [{ workers: [2, 3] }, { workers: 4 }]
    check: twin.throughput > 1.2 * twin.throughput[workers=1]`,
      ),
    );
    expect(l.claims[0].evidence.map((e) => e.split(':')[0])).toEqual([
      'at workers=2',
      'at workers=3',
      'at workers=4',
    ]);
  });

  test('within and outside compare relative distance', () => {
    const l = parse(
      lessonWith(
        `  - { id: c, says: the twin meets the bound, check: twin.throughput within 10% of bound.slowest-stage }`,
      ),
    );
    expect(l.claims[0].evidence[0]).toMatch(/within 10% of bound\.slowest-stage = 2500 items\/s/);
  });
});

describe('a claim that fails the lesson', () => {
  test('a false claim names the file, the claim, where, and both numbers', () => {
    expect(() =>
      parse(
        lessonWith(
          `  - { id: c, says: work idles, at: { workers: 2 }, check: twin.busy.work < 0.5 }`,
        ),
      ),
    ).toThrow(
      /^lessons\/03-claims\.md: claims\[0\]: "c" is false at workers=2: twin\.busy\.work = \d+\.\d% is not < 50\.0% \(the claim says: work idles\)$/,
    );
  });

  test.each([
    [
      'check: twin.busy.work ~ 0.5',
      /claims\[0\]\.check: "twin\.busy\.work ~ 0\.5" has no relation/,
    ],
    ['check: twin.speed > 1', /claims\[0\]\.check: unknown quantity twin\.speed \(known: model\./],
    [
      'check: "twin.throughput[threads=2] > 1"',
      /claims\[0\]\.check: threads is not a control of this lesson \(known: workers\)/,
    ],
    [
      'check: "twin.throughput[workers=9] > 1"',
      /claims\[0\]\.check: workers=9 is out of range \(allowed 1\.\.8\)/,
    ],
    [
      'at: { workers: 0 }, check: twin.time > 0',
      /claims\[0\]\.at\.workers: workers=0 is out of range \(allowed 1\.\.8\)/,
    ],
    [
      'at: { speed: 1 }, check: twin.time > 0',
      /claims\[0\]\.at\.speed: unknown field \(allowed: workers\)/,
    ],
    [
      'check: model.case3 > 0',
      /model\.case3 is not a quantity of the static runtime \(its quantities: model\.<case1\|case1-per-server\|case2\|exact\|lambda-max\|lambda-upper\|lambda-eu>, twin\.throughput/,
    ],
    [
      'check: twin.tp-over-tr > 1',
      /twin\.tp-over-tr is not a quantity of the static runtime \(its quantities: .*, sizing\.<n-optimal.*>, bound\.slowest-stage, twin\.in-flight, twin\.time-in-system, twin\.lambda-times-w\)$/,
    ],
    [
      'check: twin.busy.rank > 0',
      /twin\.busy\.rank: no stage named rank \(stages: input, work, output\)/,
    ],
  ])('%s', (rest, message) => {
    expect(() => parse(lessonWith(`  - { id: c, says: s, ${rest} }`))).toThrow(message);
  });

  test('two claims with one id', () => {
    expect(() =>
      parse(
        lessonWith(
          `  - { id: c, says: a, check: twin.time > 0 }\n  - { id: c, says: b, check: twin.time > 0 }`,
        ),
      ),
    ).toThrow(/claims\[1\]\.id: "c" is used twice/);
  });

  test('a claim no sentence cites', () => {
    expect(() =>
      parse(lessonWith(`  - { id: c, says: s, check: twin.time > 0 }`, 'No citation here.')),
    ).toThrow(
      /03-claims\.md: line \d+: claim c is not cited in the prose \(link its sentence: \[sentence\]\(claim:c\)\)/,
    );
  });

  test('a citation of no claim names its line', () => {
    expect(() =>
      parse(
        lessonWith(
          `  - { id: c, says: s, check: twin.time > 0 }`,
          'Cited [here](claim:c).\n\nAnd [here](claim:d).',
        ),
      ),
    ).toThrow(/03-claims\.md: line 21: claim:d is not a claim of this lesson \(claims: c\)/);
  });
});

test('a claim whose twin run would be too long is refused, not run', () => {
  const quantity = CLAIM_QUANTITIES.find((q) => q.matches('twin.throughput'))!;
  const spec = parseExperimentSpec({
    runtime: 'static',
    stages: [
      { name: 'a', mode: 'parallel', service: { kind: 'fixed', us: 1 } },
      { name: 'b', mode: 'parallel', service: { kind: 'fixed', us: 1 } },
    ],
    items: TWIN_BUDGET_ITEM_STAGES,
    seed: 1,
  });
  expect(() => quantity.evaluate(spec, 'twin.throughput')).toThrow(
    /the twin would simulate 2000000 items through 2 stages for this claim, more than the build allows/,
  );
});

test("a batch twin's budget counts its steps: whole batches for fixed services, draws for random ones", () => {
  const quantity = CLAIM_QUANTITIES.find((q) => q.matches('twin.time'))!;
  const spec = (kind: 'fixed' | 'exponential', items: number) =>
    parseExperimentSpec({
      runtime: 'two-stage-output',
      stages: [
        {
          name: 'format',
          mode: 'parallel',
          threads: 2,
          service: kind === 'fixed' ? { kind, us: 1 } : { kind, meanUs: 1 },
        },
        { name: 'write', mode: 'serial-in-order', service: { kind: 'fixed', us: 1 } },
      ],
      batchItems: 1024,
      items,
      seed: 1,
    });
  expect(batchTwinSteps(spec('fixed', 10_000_000))).toBe(2 * Math.ceil(10_000_000 / 1024));
  expect(batchTwinSteps(spec('exponential', 10_240))).toBe(10_240 + 10);
  expect(() =>
    quantity.evaluate(spec('exponential', TWIN_BUDGET_ITEM_STAGES), 'twin.time'),
  ).toThrow(
    /the twin would simulate 2001954 batch and item steps \(2000000 items in batches of 1024\) for this claim, more than the build allows/,
  );
});
