// Lesson files: a good one parses into meta + blocks; each kind of mistake fails naming the file
// and the field or line, so a bad lesson can never reach the page.
import { describe, expect, test } from 'vitest';
import { applyControls } from '../../../src/lessons/controls';
import { loadLessons, parseLesson } from '../../../src/lessons/loadLessons';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const experiment = `experiment:
  runtime: static
  stages:
    - { name: input, mode: serial-in-order, threads: 1, service: { kind: fixed, us: 10 } }
    - { name: work, mode: parallel, threads: 2, service: { kind: exponential, meanUs: 40 } }
    - { name: output, mode: serial-in-order, threads: 1, service: { kind: fixed, us: 10 } }
  items: 1000
  seed: 7`;

const control = `controls:
  - { id: threads, label: Workers, targets: ["stages[1].threads"], min: 1, max: 8 }`;

function lesson(
  frontMatter: string,
  body = 'Some prose with $\\lambda = c/T$.\n\n::experiment\n\nMore.',
) {
  return `---\ntitle: Bubbles\nsummary: Where pipelines wait.\n${frontMatter}\n---\n${body}\n`;
}

describe('parseLesson', () => {
  test('a good lesson: meta, control default, math and component slots', () => {
    const l = parseLesson(
      'lessons/01-bubbles.md',
      lesson(`${experiment}\n${control}\nmodels: [case1]\nsweep: threads`),
    );
    expect(l).toMatchObject({
      number: 1,
      slug: 'bubbles',
      title: 'Bubbles',
      models: ['case1'],
      sweep: 'threads',
    });
    expect(l.controls[0]).toMatchObject({
      id: 'threads',
      min: 1,
      max: 8,
      step: 1,
      defaultValue: 2,
    });
    expect(l.blocks.map((b) => b.kind)).toEqual(['html', 'component', 'html']);
    expect(l.blocks[0].kind === 'html' && l.blocks[0].html).toContain('class="katex"');
    expect(l.blocks[1]).toEqual({ kind: 'component', name: 'experiment' });
  });

  test('controls write into the spec', () => {
    const l = parseLesson('lessons/01-bubbles.md', lesson(`${experiment}\n${control}`));
    expect(applyControls(l.experimentSource, l.controls, { threads: 5 })).toMatchObject({
      threads: 7,
      stages: [{ threads: 1 }, { threads: 5 }, { threads: 1 }],
    });
    expect(applyControls(l.experimentSource, l.controls, {}).stages[1].threads).toBe(2);
  });

  test.each([
    [
      'lessons/bubbles.md',
      lesson(experiment),
      /bubbles\.md: the file name must look like NN-some-slug\.md/,
    ],
    ['lessons/01-a.md', 'no front matter', /01-a\.md: missing front matter/],
    ['lessons/01-a.md', lesson(`${experiment}\nextra: 1`), /01-a\.md: extra: unknown field/],
    [
      'lessons/01-a.md',
      lesson(experiment.replace('threads: 2', 'threads: 0')),
      /01-a\.md: experiment\.stages\[1\]\.threads: 0 is out of range/,
    ],
    [
      'lessons/01-a.md',
      lesson(`${experiment}\n${control.replace('max: 8', 'max: 0')}`),
      /01-a\.md: controls\[0\]\.max: 0 is out of range \(allowed 1\.\.100000000\)/,
    ],
    [
      'lessons/01-a.md',
      lesson(`${experiment}\n${control.replace('stages[1].threads', 'stages[9].threads')}`),
      /01-a\.md: controls\[0\]\.targets\[0\]: "stages\[9\]\.threads" is not an integer field/,
    ],
    [
      'lessons/01-a.md',
      lesson(`${experiment}\n${control.replace('stages[1].threads', 'stages[0].threads')}`),
      /01-a\.md: controls\[0\]\.max: at threads=8 the experiment is invalid/,
    ],
    [
      'lessons/01-a.md',
      lesson(`${experiment}\nmodels: [magic]`),
      /01-a\.md: models\[0\]: "magic" is not one of/,
    ],
    [
      'lessons/01-a.md',
      lesson(`${experiment}\nmodels: [case1, packing-bound]`),
      /01-a\.md: models\[1\]: packing-bound is not a model of the static runtime \(its models: case1, case1-per-server, case2, exact, lambda-max, lambda-upper, lambda-eu\)$/,
    ],
    [
      'lessons/01-a.md',
      lesson(`${experiment}\nsweep: tokens`),
      /01-a\.md: sweep: "tokens" is not one of/,
    ],
    [
      'lessons/01-a.md',
      lesson(experiment, 'Intro\n\n::widget\n'),
      /01-a\.md: line 15: unknown component ::widget/,
    ],
    [
      'lessons/01-a.md',
      lesson(experiment, 'Intro\n\n::stage model-chart widget\n'),
      /01-a\.md: line 15: unknown component widget in ::stage \(known: experiment,/,
    ],
    [
      'lessons/01-a.md',
      lesson(experiment, 'Intro\n\n::stage\n'),
      /01-a\.md: line 15: ::stage names no view/,
    ],
    [
      'lessons/01-a.md',
      lesson(experiment, 'Intro\n\n::stage experiment model-chart\n'),
      /01-a\.md: line 15: ::stage lists experiment, which every presenter step shows already/,
    ],
    [
      'lessons/01-a.md',
      lesson(experiment, 'Intro\n\n::stage timeline\n\n::stage model-chart\n'),
      /01-a\.md: line 17: a second ::stage in one section/,
    ],
    [
      'lessons/01-a.md',
      lesson(experiment, 'Intro\n\n::stage model-chart ?zz=1\n'),
      /01-a\.md: line 15: ::stage \?zz=1: zz is not a control of this lesson \(known: /,
    ],
    [
      'lessons/01-a.md',
      lesson(`${experiment}\n${control}`, 'Intro\n\n::stage model-chart ?threads=99\n'),
      /01-a\.md: line 17: ::stage \?threads=99: threads=99 is out of range/,
    ],
    [
      'lessons/01-a.md',
      lesson(`${experiment}\n${control}`, 'Intro\n\n::stage model-chart ?threads=2&threads=3\n'),
      /01-a\.md: line 17: ::stage \?threads=2&threads=3: threads is given more than once/,
    ],
    [
      'lessons/01-a.md',
      lesson(experiment, 'Bad $\\frac{1}{$ formula'),
      /01-a\.md: line 13: bad formula/,
    ],
  ])('%s is rejected: %s', (file, text, message) => {
    expect(() => parseLesson(file, text)).toThrow(message);
  });
});

const choice = `controls:
  - id: shape
    label: Shape
    choices:
      - { value: wide, label: Wide, set: {} }
      - value: short
        label: Short
        set:
          stages:
            - { name: only, mode: parallel, threads: 3, service: { kind: fixed, us: 5 } }`;

describe('choice controls', () => {
  test('a choice replaces whole fields; defaults follow', () => {
    const l = parseLesson('lessons/02-x.md', lesson(`${experiment}\n${choice}`));
    expect(l.controls[0]).toMatchObject({ kind: 'choice', defaultValue: 'wide' });
    const short = applyControls(l.experimentSource, l.controls, { shape: 'short' });
    expect(short.stages.map((s) => s.name)).toEqual(['only']);
    expect(short.threads).toBe(3);
    expect(() => applyControls(l.experimentSource, l.controls, { shape: 'tall' })).toThrow(
      /shape: "tall" is not one of wide, short/,
    );
  });

  test('a range control must stay valid under every choice', () => {
    const both = `${choice}\n  - { id: threads, label: W, targets: ["stages[1].threads"], min: 1, max: 4 }`;
    expect(() => parseLesson('lessons/02-x.md', lesson(`${experiment}\n${both}`))).toThrow(
      /02-x\.md: controls\[1\]\.(max|min): at shape=short, threads=\d the experiment is invalid/,
    );
  });
});

// Loading checks every claim and paper row with the seeded twin: 7 s measured for a cold load of
// three lessons at load average 28 on this machine, so more room than the default 5 s.
test(
  'the lessons in lessons/ are valid, and each has its preview and README screenshot',
  {
    timeout: 60_000,
  },
  () => {
    const root = resolve(__dirname, '../../..');
    const lessons = loadLessons(resolve(root, 'lessons'), root);
    expect(lessons.length).toBe(
      readdirSync(resolve(root, 'lessons')).filter((f) => /^\d\d-/.test(f)).length,
    );
    const readme = readFileSync(resolve(root, 'README.md'), 'utf8');
    for (const l of lessons) {
      expect(l.blocks.some((b) => b.kind === 'component')).toBe(true);
      // Taken from the real page by `npm run screenshots`.
      expect(existsSync(resolve(root, `public/previews/lesson-${l.slug}.jpg`)), l.slug).toBe(true);
      expect(readme, l.slug).toContain(`(public/screenshots/lesson-${l.slug}.png)`);
    }
  },
);
