// Field readers for the ExperimentSpec validator (and the lesson format): each checks the JSON
// type, the kind of number and the range, and throws SpecError in the one wording of
// contracts/spec.md ("is not an integer", "is out of range", "unknown field", "not taken by",
// "missing", "is not one of"), naming the field path and what is allowed.

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

/** A value as messages show it: scalars as JavaScript prints them, containers by their kind. */
export function show(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object' && value !== null) return 'an object';
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

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

/** A known field that this variant (`the static runtime`, `the fixed service`) does not take. */
export function notTaken(fieldPath: string, taken: readonly string[], variant: string): SpecError {
  return new SpecError(fieldPath, `not taken by ${variant} (allowed: ${taken.join(', ')})`);
}

/** Rejects every field of `obj` the variant does not take; fields in `carried` are the caller's. */
export function readTaken(
  obj: JsonObject,
  path: string,
  taken: readonly string[],
  variant: string,
  carried: readonly string[] = [],
): void {
  for (const key of Object.keys(obj)) {
    if (!taken.includes(key) && !carried.includes(key))
      throw notTaken(join(path, key), taken, variant);
  }
}

/** `note` is added after "required", e.g. "; null = unbounded". */
export function requireField(obj: JsonObject, key: string, path: string, note = ''): unknown {
  if (obj[key] === undefined) throw new SpecError(join(path, key), `missing (required${note})`);
  return obj[key];
}

function checkRange(value: number, path: string, min: number, max: number): number {
  if (!(value >= min && value <= max)) {
    throw new SpecError(path, `${value} is out of range (allowed ${min}..${max})`);
  }
  return value;
}

export function readInteger(value: unknown, path: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new SpecError(path, `${show(value)} is not an integer (allowed ${min}..${max})`);
  }
  return checkRange(value, path, min, max);
}

/** A number in min..max (±Infinity, which JSON spells 1e999, is out of range). */
export function readNumber(value: unknown, path: string, min: number, max: number): number {
  if (typeof value !== 'number' || Number.isNaN(value)) {
    throw new SpecError(path, `${show(value)} is not a number (allowed ${min}..${max})`);
  }
  return checkRange(value, path, min, max);
}

/** A string whose UTF-8 length is in minLen..maxLen bytes. */
export function readString(value: unknown, path: string, minLen: number, maxLen: number): string {
  if (typeof value !== 'string') {
    throw new SpecError(
      path,
      `${show(value)} is not a string (allowed ${minLen}..${maxLen} bytes)`,
    );
  }
  const bytes = new TextEncoder().encode(value).length;
  if (bytes < minLen || bytes > maxLen) {
    throw new SpecError(path, `${show(value)} has ${bytes} bytes (allowed ${minLen}..${maxLen})`);
  }
  return value;
}

/** An array of minLen..maxLen `items` (the plural noun the messages count in). */
export function readArray(
  value: unknown,
  path: string,
  minLen: number,
  maxLen: number,
  items: string,
): unknown[] {
  if (!Array.isArray(value)) {
    throw new SpecError(
      path,
      `${show(value)} is not an array (allowed ${minLen}..${maxLen} ${items})`,
    );
  }
  if (value.length < minLen || value.length > maxLen) {
    throw new SpecError(
      path,
      `${value.length} ${items} is out of range (allowed ${minLen}..${maxLen})`,
    );
  }
  return value;
}

export function readEnum<T extends string>(value: unknown, path: string, allowed: readonly T[]): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw new SpecError(path, `${show(value)} is not one of ${allowed.join(' | ')}`);
  }
  return value as T;
}

/** An id field: a string matching `pattern` and, when `seen` is given, not used before in it
 * (lesson claims, paper rows, controls). */
export function readId(
  obj: JsonObject,
  path: string,
  pattern: RegExp,
  maxLen: number,
  seen?: Set<string>,
): string {
  const id = readString(requireField(obj, 'id', path), join(path, 'id'), 1, maxLen);
  if (!pattern.test(id))
    throw new SpecError(join(path, 'id'), `"${id}" must match ${pattern.source}`);
  if (seen?.has(id)) throw new SpecError(join(path, 'id'), `"${id}" is used twice`);
  seen?.add(id);
  return id;
}
