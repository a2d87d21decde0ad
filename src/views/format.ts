// Number formatting shared by the views: rates with SI suffixes, fixed significant digits.

export function formatRate(perSec: number): string {
  if (!Number.isFinite(perSec) || perSec <= 0) return '0';
  const units: Array<[number, string]> = [
    [1e9, 'G'],
    [1e6, 'M'],
    [1e3, 'k'],
  ];
  for (const [scale, suffix] of units)
    if (perSec >= scale) return `${(perSec / scale).toPrecision(3)} ${suffix}`;
  return perSec.toPrecision(3);
}
