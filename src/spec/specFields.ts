// Field readers for the ExperimentSpec validator: each names the field path and allowed range.

/** A bad spec field: `.path` is the field (`stages[1].threads`), the message says why. */
export class SpecError extends Error {
  readonly path: string;
  constructor(path: string, problem: string) {
    super(path === '' ? problem : `${path}: ${problem}`);
    this.name = 'SpecError';
    this.path = path;
  }
}

export type JsonObject = Record<string, unknown>;

const show = (value: unknown): string =>
  typeof value === 'string' ? JSON.stringify(value) : String(JSON.stringify(value) ?? value);

export function join(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path === '' ? key : `${path}.${key}`;
}

/** The object at `path`, after rejecting any key not in `allowed` (typos must not fall back). */
export function readObject(value: unknown, path: string, allowed: readonly string[]): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new SpecError(path, `${show(value)} is not an object`);
  }
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) {
      throw new SpecError(join(path, key), `unknown field (allowed: ${allowed.join(', ')})`);
    }
  }
  return value as JsonObject;
}

export function requireField(obj: JsonObject, key: string, path: string): unknown {
  if (obj[key] === undefined) throw new SpecError(join(path, key), 'missing (required)');
  return obj[key];
}

export function readInteger(value: unknown, path: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new SpecError(path, `${show(value)} is not an integer (allowed ${min}..${max})`);
  }
  if (value < min || value > max) {
    throw new SpecError(path, `${value} is out of range (allowed ${min}..${max})`);
  }
  return value;
}

export function readNumber(value: unknown, path: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new SpecError(path, `${show(value)} is not a finite number (allowed ${min}..${max})`);
  }
  if (value < min || value > max) {
    throw new SpecError(path, `${value} is out of range (allowed ${min}..${max})`);
  }
  return value;
}

/** A string whose UTF-8 length is in minLen..maxLen bytes. */
export function readString(value: unknown, path: string, minLen: number, maxLen: number): string {
  if (typeof value !== 'string') throw new SpecError(path, `${show(value)} is not a string`);
  // Length in UTF-8 bytes, as the C++ parser counts it.
  const bytes = new TextEncoder().encode(value).length;
  if (bytes < minLen || bytes > maxLen) {
    throw new SpecError(path, `${show(value)} has ${bytes} bytes (allowed ${minLen}..${maxLen})`);
  }
  return value;
}

export function readEnum<T extends string>(value: unknown, path: string, allowed: readonly T[]): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw new SpecError(path, `${show(value)} is not one of ${allowed.join(' | ')}`);
  }
  return value as T;
}
