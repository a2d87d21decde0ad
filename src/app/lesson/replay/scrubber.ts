// Where the replay scrubber sends the replay's clock. A range input keeps its value to 15
// significant digits (Chromium: max 2670335.000000894 reads back as 2670335.00000089), so dragging
// it to its end can land a few picoseconds short of the recording's duration — before the last
// event and the last phaser board, which are stamped at that very time. Within that rounding the
// scrubber means "the end".
const INPUT_PRECISION = 1e-12;

/** The replay time (µs) for scrubber value `value` on a recording of `durationUs`. */
export function scrubberTarget(value: number, durationUs: number): number {
  if (!(value > 0)) return 0;
  if (value >= durationUs - durationUs * INPUT_PRECISION) return durationUs;
  return value;
}
