// The ExperimentSpec case table (tests/fixtures/spec-cases.json, format in contracts/spec.md),
// loaded for its runner (specCases.test.ts) and for the fuzzers' starting points (specFuzz.ts).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { SpecError } from '../../../src/spec/specFields';

export interface SpecCase {
  name: string;
  /** A JSON value: the validator gets it as it is, and as JSON.stringify text. */
  input?: unknown;
  /** JSON text, read with JSON.parse (1e999, -0, escapes, key order). */
  text?: string;
  /** A good case: the normalised spec. */
  spec?: unknown;
  /** A bad case: the first problem's field path and full message. */
  error?: { path: string; message: string };
}

/** What a validator made of a case: the normalised spec as JSON text, or the error. */
export type Outcome = { spec: string } | { path: string; message: string };

export function loadSpecCases(): SpecCase[] {
  const file = resolve(__dirname, '../../fixtures/spec-cases.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { cases: SpecCase[] }).cases;
}

export const textOf = (c: SpecCase): string => c.text ?? JSON.stringify(c.input);

export const expectedOutcome = (c: SpecCase): Outcome =>
  c.error ? { ...c.error } : { spec: JSON.stringify(c.spec) };

/** Runs a validator; a SpecError becomes the outcome, any other exception is a test failure. */
export function outcomeOf(validate: () => unknown): Outcome {
  try {
    return { spec: JSON.stringify(validate()) };
  } catch (e) {
    if (!(e instanceof SpecError)) throw e;
    return { path: e.path, message: e.message };
  }
}
