// Checked claims: a lesson's comparative sentences, stated in its front matter as checks that the
// build evaluates with the models and the seeded twin (see FORMAT.md). A claim that turns false
// fails the build naming the lesson and the claim, so no sentence on screen can drift away from the
// numbers the page shows.
//
//   claims:
//     - id: seven-like-four
//       says: From 8 tokens on, 4 and 7 stages take about as long.
//       at: { tokens: [8, 16, 32] }          # control values; each combination is checked
//                                            # (or a list of such maps: the union of theirs)
//       check: twin.throughput[stages=7] within 5% of twin.throughput
//
// A check is `<side> <relation> <side>`; a side is a number, or a quantity with an optional factor
// (`1.1 * model.ideal`) and control values of its own in brackets (`[stages=7, tokens=1]`).
// Relations: > >= < <= and `within P% of` / `outside P% of` (|a − b| ≤ P% of |b|, or more).
import type { ExperimentSpec } from '../spec/experimentSpec';
import { join, readId, readObject, readString, requireField, SpecError } from '../spec/specFields';
import { CLAIM_QUANTITIES, formatQuantity, type ClaimQuantity } from './claimQuantities';
import { rangeValue, type ControlValues, type LessonControl } from './controls';

export interface QuantityRef {
  quantity: ClaimQuantity;
  name: string;
  factor: number;
  /** Control values this side sets on top of the claim's own. */
  set: ControlValues;
}

export type Side = { kind: 'number'; value: number } | ({ kind: 'quantity' } & QuantityRef);

export type Relation =
  { op: '>' | '>=' | '<' | '<=' } | { op: 'within' | 'outside'; percent: number };

export interface ClaimSpec {
  id: string;
  says: string;
  /** Where to check: each map's every combination of values (absent controls keep their
   * defaults); no map = at the defaults. */
  at: Array<Record<string, Array<number | string>>>;
  check: string;
  left: Side;
  relation: Relation;
  right: Side;
}

export interface CheckedClaim {
  id: string;
  says: string;
  check: string;
  /** One line per combination of `at`, with the numbers both sides had. */
  evidence: string[];
  /** The combinations of `at` it was checked at, each over the lesson's defaults ({}: the
   * defaults themselves). */
  at: ControlValues[];
}

const CLAIM_ID = /^[a-z][a-z0-9-]{0,47}$/;
const NUMBER = String.raw`\d+(?:\.\d+)?`;
const SIDE = new RegExp(
  String.raw`^(?:(${NUMBER})\s*[*×]\s*)?([a-z][a-z0-9-]*(?:\.[a-z0-9-]+)*)(?:\[([^\]]*)\])?$|^(${NUMBER})$`,
);
const RELATION = new RegExp(String.raw`\s(>=|<=|>|<|(?:within|outside) (${NUMBER})% of)\s`);

export function parseSide(text: string, path: string, controls: LessonControl[]): Side {
  const m = SIDE.exec(text.trim());
  if (!m)
    throw new SpecError(
      path,
      `"${text.trim()}" is not a number or a quantity such as model.case1 or 2 * twin.throughput[tokens=4]`,
    );
  if (m[4] !== undefined) return { kind: 'number', value: Number(m[4]) };
  const name = m[2];
  const quantity = quantityNamed(name);
  if (!quantity)
    throw new SpecError(
      path,
      `unknown quantity ${name} (known: ${CLAIM_QUANTITIES.map((q) => q.pattern).join(', ')})`,
    );
  const set: ControlValues = {};
  for (const assignment of (m[3] ?? '').split(',').filter((a) => a.trim())) {
    const [id, value] = assignment.split('=').map((x) => x.trim());
    set[id] = controlValue(controls, id, value, path);
  }
  return { kind: 'quantity', quantity, name, factor: m[1] ? Number(m[1]) : 1, set };
}

function quantityNamed(name: string): ClaimQuantity | undefined {
  return CLAIM_QUANTITIES.find((q) => q.matches(name));
}

/** A control value written in a claim, checked like a URL parameter: known control, in range. */
export function controlValue(
  controls: LessonControl[],
  id: string,
  raw: unknown,
  path: string,
): number | string {
  const control = controls.find((c) => c.id === id);
  if (!control)
    throw new SpecError(
      path,
      `${id} is not a control of this lesson (known: ${controls.map((c) => c.id).join(', ') || 'none'})`,
    );
  if (control.kind === 'choice') {
    const value = String(raw);
    if (!control.choices.some((c) => c.value === value))
      throw new SpecError(
        path,
        `${id}=${value} is not one of ${control.choices.map((c) => c.value).join(', ')}`,
      );
    return value;
  }
  const parsed = rangeValue(control, raw);
  if ('error' in parsed) throw new SpecError(path, parsed.error);
  return parsed.value;
}

function parseCheck(text: string, path: string, controls: LessonControl[]) {
  const m = RELATION.exec(text);
  if (!m)
    throw new SpecError(
      path,
      `"${text}" has no relation (allowed: >, >=, <, <=, within P% of, outside P% of)`,
    );
  const relation: Relation =
    m[2] !== undefined
      ? { op: m[1].startsWith('within') ? 'within' : 'outside', percent: Number(m[2]) }
      : { op: m[1] as '>' | '>=' | '<' | '<=' };
  return {
    left: parseSide(text.slice(0, m.index), path, controls),
    relation,
    right: parseSide(text.slice(m.index + m[0].length), path, controls),
  };
}

/** Validates the front matter's `claims` list (structure only; evaluation is evaluateClaims). */
export function readClaims(raw: unknown, controls: LessonControl[]): ClaimSpec[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw) || raw.length > 32)
    throw new SpecError('claims', 'must be a list of at most 32 claims');
  const ids = new Set<string>();
  return raw.map((value, i) => {
    const path = join('claims', i);
    const o = readObject(value, path, ['id', 'says', 'at', 'check']);
    const id = readId(o, path, CLAIM_ID, 48, ids);
    const says = readString(requireField(o, 'says', path), join(path, 'says'), 1, 400);
    const atRaw = o.at === undefined ? [] : Array.isArray(o.at) ? o.at : [o.at];
    if (atRaw.length > 16) throw new SpecError(join(path, 'at'), 'must hold at most 16 maps');
    const at = atRaw.map((m, k) => {
      const mapPath = Array.isArray(o.at) ? join(join(path, 'at'), k) : join(path, 'at');
      const values: Record<string, Array<number | string>> = {};
      const ids = controls.map((c) => c.id);
      for (const [key, v] of Object.entries(readObject(m, mapPath, ids))) {
        const list = Array.isArray(v) ? v : [v];
        if (list.length === 0 || list.length > 16)
          throw new SpecError(join(mapPath, key), 'must hold 1..16 values');
        values[key] = list.map((x) => controlValue(controls, key, x, join(mapPath, key)));
      }
      return values;
    });
    const check = readString(requireField(o, 'check', path), join(path, 'check'), 1, 200);
    return { id, says, at, check, ...parseCheck(check, join(path, 'check'), controls) };
  });
}

/** Every combination of each `at` map's values (one empty combination when there is none). */
function combinations(at: ClaimSpec['at']): ControlValues[] {
  if (at.length === 0) return [{}];
  return at.flatMap((map) => {
    let combos: ControlValues[] = [{}];
    for (const [id, values] of Object.entries(map))
      combos = combos.flatMap((c) => values.map((v) => ({ ...c, [id]: v })));
    return combos;
  });
}

function holds(relation: Relation, a: number, b: number): boolean {
  switch (relation.op) {
    case '>':
      return a > b;
    case '>=':
      return a >= b;
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case 'within':
      return Math.abs(a - b) <= (relation.percent / 100) * Math.abs(b);
    case 'outside':
      return Math.abs(a - b) > (relation.percent / 100) * Math.abs(b);
  }
}

const relationText = (r: Relation) =>
  r.op === 'within' || r.op === 'outside' ? `${r.op} ${r.percent}% of` : r.op;

/**
 * Evaluates every claim at each combination of its `at` values; returns the evidence, or throws a
 * SpecError naming the claim, where it failed and both numbers.
 */
export function evaluateClaims(
  claims: ClaimSpec[],
  specAt: (values: ControlValues) => ExperimentSpec,
): CheckedClaim[] {
  return claims.map((claim, i) => {
    // A plain number is shown in the unit of the quantity it is compared with.
    const other = [claim.left, claim.right].find((s) => s.kind === 'quantity');
    const unitOf = other?.kind === 'quantity' ? other.quantity : undefined;
    const at = combinations(claim.at);
    const evidence = at.map((combo) => {
      const [a, aText] = sideValue(claim.left, specAt, combo, unitOf);
      const [b, bText] = sideValue(claim.right, specAt, combo, unitOf);
      const where = Object.keys(combo).length
        ? `at ${bracket(combo).slice(1, -1)}`
        : 'at the defaults';
      if (!holds(claim.relation, a, b))
        throw new SpecError(
          join('claims', i),
          `"${claim.id}" is false ${where}: ${aText} is not ${relationText(claim.relation)} ${bText} (the claim says: ${claim.says})`,
        );
      return `${where}: ${aText} ${relationText(claim.relation)} ${bText}`;
    });
    return { id: claim.id, says: claim.says, check: claim.check, evidence, at };
  });
}

/** A side's value at the control values `combo` (plus the side's own), and how to show it. */
export function sideValue(
  side: Side,
  specAt: (values: ControlValues) => ExperimentSpec,
  combo: ControlValues,
  numberUnit?: Pick<ClaimQuantity, 'unit'>,
): [number, string] {
  if (side.kind === 'number')
    return [side.value, numberUnit ? formatQuantity(side.value, numberUnit) : String(side.value)];
  const x = side.factor * side.quantity.evaluate(specAt({ ...combo, ...side.set }), side.name);
  const label = `${side.factor === 1 ? '' : `${side.factor} × `}${side.name}${bracket(side.set)}`;
  return [x, `${label} = ${formatQuantity(x, side.quantity)}`];
}

export function bracket(values: ControlValues): string {
  const entries = Object.entries(values);
  return entries.length ? `[${entries.map(([k, v]) => `${k}=${v}`).join(', ')}]` : '';
}

/** Whether a claim was checked at the defaults alone (no `at`). Such a sentence often does not
 * say so ("extract is busy nearly all the time") and may be false at other settings; one checked
 * with `at` names its settings in its words ("With 3 threads on extract, rank is ..."), so it
 * holds as written whatever the page shows. */
export const checkedAtDefaultsOnly = (claim: Pick<CheckedClaim, 'at'>): boolean =>
  claim.at.length === 1 && Object.keys(claim.at[0]).length === 0;
