// Property tests of what a visitor or an author can type: random URL queries on every lesson's
// controls (every bad value named with its parameter, the values used always within range), and
// every lesson's front matter mutated (the lesson loads, or fails with a LessonError naming file
// and field — never another exception). Fixed seed; PIPELAB_FUZZ_RUNS for the long mode.
import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { parse as parseYaml, stringify as toYaml } from 'yaml';
import { readControlValues } from '../../../src/app/lesson/lessonControls';
import { LessonError, loadLessons, parseLesson } from '../../../src/lessons/loadLessons';
import { FUZZ_RUNS, FUZZ_SEED, mutatedFrom, type Json } from '../spec/specFuzz';

const root = resolve(__dirname, '../../..');
const lessons = loadLessons(resolve(root, 'lessons'), root);

test('random URL queries: every problem named with its parameter, values always in range', () => {
  const lesson = fc.constantFrom(...lessons);
  const key = (ids: string[]) =>
    fc.oneof(fc.constantFrom(...ids, 'engine'), fc.string({ maxLength: 8 }));
  const value = fc.oneof(
    fc.string({ maxLength: 8 }),
    fc.integer({ min: -1e6, max: 1e6 }).map(String),
    fc.double().map(String),
  );
  fc.assert(
    fc.property(
      lesson.chain((l) =>
        fc.tuple(fc.constant(l), fc.array(fc.tuple(key(l.controls.map((c) => c.id)), value))),
      ),
      ([l, pairs]) => {
        const query = new URLSearchParams(pairs);
        const { values, errors } = readControlValues(l.controls, query);
        for (const e of errors) expect(pairs.some(([k]) => e.startsWith(`${k}`))).toBe(true);
        for (const c of l.controls) {
          const v = values[c.id];
          if (c.kind === 'range') {
            expect(Number.isInteger(v)).toBe(true);
            expect(v as number).toBeGreaterThanOrEqual(c.min);
            expect(v as number).toBeLessThanOrEqual(c.max);
          } else expect(c.choices.map((x) => x.value)).toContain(v);
        }
      },
    ),
    { seed: FUZZ_SEED, numRuns: FUZZ_RUNS },
  );
});

test(
  'mutated front matter: the lesson loads, or a LessonError names file and field',
  { timeout: 600_000 },
  () => {
    const files = readdirSync(resolve(root, 'lessons')).filter((f) => /^\d\d-.*\.md$/.test(f));
    const sources = files.map((f) => {
      const text = readFileSync(resolve(root, 'lessons', f), 'utf8');
      const fm = /^---\n([\s\S]*?)\n---\n/.exec(text)!;
      return {
        file: `lessons/${f}`,
        meta: parseYaml(fm[1]) as Json,
        body: text.slice(fm[0].length),
      };
    });
    fc.assert(
      fc.property(
        fc
          .nat({ max: sources.length - 1 })
          .chain((i) => fc.tuple(fc.constant(sources[i]), mutatedFrom([sources[i].meta]))),
        ([source, meta]) => {
          const text = `---\n${toYaml(meta)}---\n${source.body}`;
          try {
            parseLesson(source.file, text);
          } catch (e) {
            expect(e).toBeInstanceOf(LessonError);
            expect((e as Error).message.startsWith(`${source.file}: `)).toBe(true);
          }
        },
      ),
      // Each lesson load evaluates its claims with the twin: fewer runs than the spec fuzz.
      { seed: FUZZ_SEED, numRuns: Math.max(20, Math.round(FUZZ_RUNS / 10)) },
    );
  },
);
