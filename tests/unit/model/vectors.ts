// Reference vectors: ../shared/reference beside the repo when present, else the copy here.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../..');
const shared = path.resolve(repoRoot, '../shared/reference/queueing-vectors.json');
const fixture = path.resolve(here, 'fixtures/queueing-vectors.json');

export interface MmcRef {
  Lq: number;
  Wq: number;
  W: number;
  L: number;
  P0: number;
  throughput: number;
}

export interface ErlangRow {
  c: number;
  a: number;
  erlang_B: number;
  busy_servers_loss_v: number;
  erlang_C: number | null;
  mmc_with_S1_lam_a?: MmcRef;
}

export interface ContinuousRow {
  n: number;
  a: number;
  erlang_B_continuous: number;
  v_continuous: number;
}

export interface MmckRow {
  lam: number;
  S: number;
  c: number;
  K: number;
  P_block: number;
  throughput: number;
  L: number;
  Lq: number;
  W: number;
  Wq: number;
  utilization: number;
  P_wait_given_admitted: number;
}

export interface FiniteRow {
  N: number;
  c: number;
  Z_think: number;
  S: number;
  throughput: number;
  throughput_eq3_form: number;
  L_at_station: number;
  R_response: number;
  utilization: number;
  P0: number;
  P_n: number[];
}

export interface RealServersRow {
  N: number;
  c_real: number;
  Z_think: number;
  S: number;
  throughput: number;
  P_n: number[];
}

interface Vectors {
  a_erlang: { vectors: ErlangRow[]; continuous_erlang_B: ContinuousRow[] };
  b_mmck: { vectors: MmckRow[] };
  c_finite_source: { vectors: FiniteRow[]; real_valued_servers: RealServersRow[] };
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
