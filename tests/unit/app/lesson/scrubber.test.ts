// The replay scrubber's value → the replay clock: a value the range input rounded to its 15
// significant digits still reaches the recording's end (it used to stop picoseconds short, before
// the last event and phaser board); other values pass through, clamped to the recording.
import { describe, expect, test } from 'vitest';
import { scrubberTarget } from '../../../../src/app/lesson/replay/scrubber';

/** What a range input reads back when set to `v` (Chromium keeps 15 significant digits). */
const asInputKeepsIt = (v: number) => Number(v.toPrecision(15));

describe('scrubberTarget', () => {
  test.each([2670335.000000894, 2535304.999999702, 2526730.0000041723, 1e6, 0.5])(
    'the scrubber at its end reaches the end of a %s µs recording',
    (durationUs) => {
      expect(scrubberTarget(asInputKeepsIt(durationUs), durationUs)).toBe(durationUs);
    },
  );

  test('the rounding really does fall short without the snap', () => {
    expect(asInputKeepsIt(2670335.000000894)).toBeLessThan(2670335.000000894);
  });

  test('a value inside the recording is kept; out of range is clamped', () => {
    expect(scrubberTarget(1_000_000, 2_670_335)).toBe(1_000_000);
    expect(scrubberTarget(2_670_334.9, 2_670_335)).toBe(2_670_334.9);
    expect(scrubberTarget(-5, 2_670_335)).toBe(0);
    expect(scrubberTarget(Number.NaN, 2_670_335)).toBe(0);
    expect(scrubberTarget(3e6, 2_670_335)).toBe(2_670_335);
  });
});
