// Measurement blocks written in the visitor's cores: a value of a range control may be `C`, `C+1`,
// `2C-1`, `2C` (C the visitor's cores), in a block's `values`, its `at`, and the brackets of its
// series and report terms (`measured.tp-over-tr[threads=C+1]`). The build checks such a block at
// several core counts (CHECK_CORES) and keeps it as written; the page resolves it at the visitor's
// cores. A resolved value is clamped to its control's range, and values that fall together (C+1
// and 2C-1 on two cores) are measured once. Pure.
import type { LessonControl } from './controls';

/** `C`, `2C`, `C+1`, `2C-1`: k·C ± d. */
const EXPR = /^(\d*)C(?:([+-])(\d+))?$/;
/** `id=expr` inside a term's brackets. */
const IN_BRACKETS = /([a-zA-Z][\w-]*)=(\d*C(?:[+-]\d+)?)(?=[,\]])/g;

/** The core counts the build checks a block at, and the one the lesson file keeps it at. */
export const CHECK_CORES = [1, 2, 3, 4, 8, 16];
export const DEFAULT_CORES = 4;

export interface CoresSource {
  /** The block as written. */
  source: unknown;
}

const isExpr = (v: unknown): v is string => typeof v === 'string' && EXPR.test(v.trim());

/** Whether a block is written in the visitor's cores. */
export function usesCores(raw: unknown): boolean {
  if (typeof raw !== 'object' || raw === null) return false;
  const o = raw as Record<string, unknown>;
  const values = Array.isArray(o.values) ? o.values : [];
  const at = typeof o.at === 'object' && o.at !== null ? Object.values(o.at) : [];
  return [...values, ...at].some(isExpr) || new RegExp(IN_BRACKETS.source).test(JSON.stringify(o));
}

/** The value of an expression at `cores`, clamped to the control's range (none: as computed). */
export function coresValue(expr: string, cores: number, control?: LessonControl): number {
  const [, k, sign, d] = EXPR.exec(expr.trim())!;
  const v = (k ? Number(k) : 1) * cores + (sign === '-' ? -1 : 1) * Number(d ?? 0);
  return control?.kind === 'range' ? Math.min(control.max, Math.max(control.min, v)) : v;
}

/** The block at `cores`: every expression a number; `values` without repeats, with what each was
 * written as (the table says `3 (C+1)`). */
export function atCores(
  raw: unknown,
  cores: number,
  controls: LessonControl[],
): { raw: unknown; written: string[] | null } {
  const o = { ...(raw as Record<string, unknown>) };
  const control = (id: unknown) => controls.find((c) => c.id === id);
  let written: string[] | null = null;
  if (Array.isArray(o.values) && o.values.some(isExpr)) {
    const seen = new Map<string, string>();
    for (const v of o.values) {
      const value = isExpr(v) ? coresValue(v, cores, control(o.over)) : v;
      if (!seen.has(String(value))) seen.set(String(value), String(v));
    }
    o.values = [...seen.keys()].map((v) => (Number.isFinite(Number(v)) ? Number(v) : v));
    written = [...seen.values()];
  }
  if (typeof o.at === 'object' && o.at !== null)
    o.at = Object.fromEntries(
      Object.entries(o.at).map(([id, v]) => [
        id,
        isExpr(v) ? coresValue(v, cores, control(id)) : v,
      ]),
    );
  // Brackets in series and report terms: `[threads=C+1]` → `[threads=5]`.
  const terms = (text: string) =>
    text.replace(
      IN_BRACKETS,
      (_, id: string, e: string) => `${id}=${coresValue(e, cores, control(id))}`,
    );
  if (Array.isArray(o.series))
    o.series = o.series.map((s) =>
      typeof s === 'string'
        ? terms(s)
        : typeof s === 'object' && s !== null && typeof (s as { of?: unknown }).of === 'string'
          ? { ...s, of: terms((s as { of: string }).of) }
          : s,
    );
  if (typeof o.report === 'object' && o.report !== null)
    o.report = Object.fromEntries(
      Object.entries(o.report).map(([row, t]) => [row, typeof t === 'string' ? terms(t) : t]),
    );
  return { raw: o, written };
}
