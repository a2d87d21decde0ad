// The TypeScript validator against its case table (tests/fixtures/spec-cases.json): every message
// a person can read about a spec, word for word, and every good case's normalised spec. Each case
// runs as JSON text read with JSON.parse (the URL's way in) and, for `input` cases, as the value
// itself (lesson front matter); a good case's spec must also validate to itself.
import { describe, expect, test } from 'vitest';
import {
  BARRIER_KINDS,
  KERNEL_NAMES,
  QUEUE_KINDS,
  RUNTIMES,
  SCHEDULES,
  STAGE_MODES,
  TWO_STAGE_VARIANTS,
  parseExperimentSpec,
} from '../../../src/spec/experimentSpec';
import { LIMITS } from '../../../src/spec/limits';
import { REDUCES, STAGE_OPS } from '../../../src/spec/phaserGraph';
import { expectedOutcome, loadSpecCases, outcomeOf, textOf } from './specCases';

const cases = loadSpecCases();

describe('spec case table, TypeScript', () => {
  test.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const expected = expectedOutcome(c);
    expect(outcomeOf(() => parseExperimentSpec(JSON.parse(textOf(c))))).toEqual(expected);
    if (c.input !== undefined)
      expect(outcomeOf(() => parseExperimentSpec(c.input))).toEqual(expected);
    // A normalised spec validates to itself: the threads engine receives it so.
    if (c.spec !== undefined)
      expect(outcomeOf(() => parseExperimentSpec(c.spec))).toEqual(expected);
  });
});

describe('the case table covers the contract', () => {
  const good = cases.filter((c) => c.spec !== undefined).map((c) => JSON.stringify(c.spec));
  const messages = cases.flatMap((c) => (c.error ? [c.error.message] : []));

  test('names are unique, and there are good and bad cases enough', () => {
    expect(new Set(cases.map((c) => c.name)).size).toBe(cases.length);
    expect(good.length).toBeGreaterThanOrEqual(20);
    expect(messages.length).toBeGreaterThanOrEqual(100);
  });

  // A new limit needs its cases: at least the message naming its range.
  test.each(Object.entries(LIMITS))('range %s is named by a bad case', (_, [min, max]) => {
    expect(messages.some((m) => m.includes(`allowed ${min}..${max}`))).toBe(true);
  });

  test('every enum word appears in a good case', () => {
    for (const word of [
      ...RUNTIMES,
      ...STAGE_MODES,
      ...QUEUE_KINDS,
      ...KERNEL_NAMES,
      ...TWO_STAGE_VARIANTS,
      ...BARRIER_KINDS,
      ...SCHEDULES,
      ...STAGE_OPS,
      ...REDUCES,
    ]) {
      expect(
        good.some((s) => s.includes(`"${word}"`)),
        word,
      ).toBe(true);
    }
  });
});
