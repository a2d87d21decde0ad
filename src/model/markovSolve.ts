// Stationary distribution of a small continuous-time Markov chain given as sparse transitions.

export interface Transition {
  from: number;
  to: number;
  rate: number;
}

const DENSE_LIMIT = 600;
const GS_TOLERANCE = 1e-14;
const GS_MAX_SWEEPS = 200_000;

/** Solves πQ = 0, Σπ = 1: dense Gaussian elimination when small, Gauss–Seidel otherwise. */
export function stationary(states: number, transitions: Transition[]): Float64Array {
  return states <= DENSE_LIMIT
    ? solveDense(states, transitions)
    : solveGaussSeidel(states, transitions);
}

function solveDense(n: number, transitions: Transition[]): Float64Array {
  // Rows are balance equations (Qᵀπ = 0); the last one is replaced by Σπ = 1.
  const a = Array.from({ length: n }, () => new Float64Array(n + 1));
  for (const { from, to, rate } of transitions) {
    a[to][from] += rate;
    a[from][from] -= rate;
  }
  a[n - 1].fill(1);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(a[r][col]) > Math.abs(a[pivot][col])) pivot = r;
    [a[col], a[pivot]] = [a[pivot], a[col]];
    const row = a[col];
    for (let r = col + 1; r < n; r++) {
      const factor = a[r][col] / row[col];
      if (factor === 0) continue;
      const target = a[r];
      for (let k = col; k <= n; k++) target[k] -= factor * row[k];
    }
  }
  const pi = new Float64Array(n);
  for (let r = n - 1; r >= 0; r--) {
    let sum = a[r][n];
    for (let k = r + 1; k < n; k++) sum -= a[r][k] * pi[k];
    pi[r] = sum / a[r][r];
  }
  return pi;
}

function solveGaussSeidel(n: number, transitions: Transition[]): Float64Array {
  const outRate = new Float64Array(n);
  const incoming: Transition[][] = Array.from({ length: n }, () => []);
  for (const t of transitions) {
    outRate[t.from] += t.rate;
    incoming[t.to].push(t);
  }
  const pi = new Float64Array(n).fill(1 / n);
  for (let sweep = 0; sweep < GS_MAX_SWEEPS; sweep++) {
    let change = 0;
    for (let s = 0; s < n; s++) {
      let inflow = 0;
      for (const t of incoming[s]) inflow += pi[t.from] * t.rate;
      const next = inflow / outRate[s];
      change = Math.max(change, Math.abs(next - pi[s]) / Math.max(next, 1e-300));
      pi[s] = next;
    }
    const total = pi.reduce((x, y) => x + y, 0);
    for (let s = 0; s < n; s++) pi[s] /= total;
    if (change < GS_TOLERANCE) return pi;
  }
  throw new Error(`Gauss–Seidel did not converge for a chain of ${n} states`);
}
