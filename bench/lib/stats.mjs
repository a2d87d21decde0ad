// The statistics every benchmark report uses, defined once: the median (for an even count, the
// mean of the two middle values — the standard definition), the nearest-rank percentile, and a
// value's median with its min and max over the repeats.

/** @param {number[]} values */
function sorted(values) {
  if (values.length === 0) throw new Error('no values to summarize (0 repeats)');
  return [...values].sort((a, b) => a - b);
}

/** The median; for an even count, the mean of the two middle values. */
export function median(values) {
  const s = sorted(values);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/**
 * The nearest-rank percentile: the smallest value with at least p of all values at or below it.
 * @param {number[]} values
 * @param {number} p  a fraction in (0, 1]
 */
export function percentile(values, p) {
  if (!(p > 0 && p <= 1)) throw new Error(`percentile: p ${p} is out of range (allowed (0, 1])`);
  const s = sorted(values);
  return s[Math.ceil(p * s.length) - 1];
}

/** `{[name]: median, [name_min]: min, [name_max]: max}` of the values. */
export function spread(name, values) {
  const s = sorted(values);
  return { [name]: median(s), [`${name}_min`]: s[0], [`${name}_max`]: s[s.length - 1] };
}
