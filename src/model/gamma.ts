// Log-gamma and the continuous Erlang B base case via the upper incomplete gamma function.

const LANCZOS_G = 7;
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
  -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
  1.5056327351493116e-7,
];

/** ln Γ(x) for x > 0 (Lanczos, g = 7, n = 9: about 15 significant digits). */
export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const z = x - 1;
  let sum = LANCZOS[0];
  for (let i = 1; i < LANCZOS.length; i++) sum += LANCZOS[i] / (z + i);
  const t = z + LANCZOS_G + 0.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

const EPS = 1e-16;
const MAX_TERMS = 10_000;

/**
 * Erlang B for a fractional number of servers f in (0, 1): B(f, a) = a^f e^{−a} / Γ(f+1, a).
 * With s = f + 1: for a < s + 1 the series for the lower gamma γ(s, a) is subtracted from Γ(s);
 * otherwise the Lentz continued fraction gives Γ(s, a) = e^{−a} a^s · h, hence B = 1 / (a·h).
 */
export function erlangBFractionalBase(f: number, a: number): number {
  if (a === 0) return 0;
  const s = f + 1;
  if (a < s + 1) {
    let term = 1 / s;
    let sum = term;
    for (let n = 1; n < MAX_TERMS && Math.abs(term) > Math.abs(sum) * EPS; n++) {
      term *= a / (s + n);
      sum += term;
    }
    const logLower = s * Math.log(a) - a + Math.log(sum);
    const upper = Math.exp(logGamma(s)) - Math.exp(logLower);
    return Math.exp(f * Math.log(a) - a) / upper;
  }
  const tiny = 1e-300;
  let b = a + 1 - s;
  let c = 1 / tiny;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < MAX_TERMS; i++) {
    const an = -i * (i - s);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < EPS) break;
  }
  return 1 / (a * h);
}
