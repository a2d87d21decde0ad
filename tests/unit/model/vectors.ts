// Loads the reference vectors: ../shared/reference beside the repo when present, else the copy here.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../..');
const shared = path.resolve(repoRoot, '../shared/reference/queueing-vectors.json');
const fixture = path.resolve(here, 'fixtures/queueing-vectors.json');

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Row = Record<string, any>;
interface Vectors {
  a_erlang: { vectors: Row[]; continuous_erlang_B: Row[] };
  b_mmck: { vectors: Row[] };
  c_finite_source: { vectors: Row[]; real_valued_servers: Row[] };
}

export const vectors: Vectors = JSON.parse(
  readFileSync(existsSync(shared) ? shared : fixture, 'utf8'),
);

/** Closed forms must agree to 1e-9 relative (absolute near zero). */
export function expectClose(actual: number, expected: number, rel = 1e-9): void {
  const scale = Math.max(Math.abs(expected), 1e-300);
  if (!(Math.abs(actual - expected) <= rel * scale)) {
    expect.fail(`expected ${actual} to equal ${expected} within ${rel} relative`);
  }
}
