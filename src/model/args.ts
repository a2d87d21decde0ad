// Argument checks shared by every model: errors name the argument, its value and the allowed range.

/** Thrown for a bad model argument, e.g. `invalid servers: -1 (allowed integer 1..256)`. */
export class ModelArgumentError extends Error {
  readonly argument: string;
  constructor(argument: string, value: unknown, allowed: string) {
    super(`invalid ${argument}: ${String(value)} (allowed ${allowed})`);
    this.name = 'ModelArgumentError';
    this.argument = argument;
  }
}

export const MAX_SERVERS = 256;
/** Up to the largest queue capacity a spec allows, so Case 1 takes any Queue_size; the log-space
 * solvers are O(N), and tests check 10,000 tokens on 256 servers. */
export const MAX_POPULATION = 65_536;

export function checkInteger(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ModelArgumentError(name, value, `integer ${min}..${max}`);
  }
  return value;
}

/** A finite real in [min, max]; `minExclusive` turns the lower bound into `> min`. */
export function checkReal(
  name: string,
  value: number,
  min: number,
  max = Infinity,
  minExclusive = false,
): number {
  const low = minExclusive ? value > min : value >= min;
  if (!Number.isFinite(value) || !low || value > max) {
    const lower = minExclusive ? `> ${min}` : `>= ${min}`;
    const upper = max === Infinity ? '' : ` and <= ${max}`;
    throw new ModelArgumentError(name, value, `finite number ${lower}${upper}`);
  }
  return value;
}

export const checkPositive = (name: string, value: number): number =>
  checkReal(name, value, 0, Infinity, true);
export const checkNonNegative = (name: string, value: number): number => checkReal(name, value, 0);
