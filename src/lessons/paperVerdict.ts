// A paper row's verdict and scale (FORMAT.md): how ours relates to the paper's figure, and whose
// settings ours ran at. A reader of #/papers must tell a match from a gap, and a match that holds
// because one of our parameters was set from that very figure from one that was predicted:
//   agrees  — ours lies within `tolerance` of the paper's figure, checked when the lesson loads
//   differs — ours does not; `reason` says why in one sentence (from the seed or a measurement)
//   fitted  — `fitted` names the parameter of ours that was set from this figure (so a match
//             proves nothing)
//   bound   — the paper states a direction (`bound: above|below`); ours lies on that side, checked
// `scale: paper` only where the row's settings are the paper's; `lesson` where they are ours.
import {
  join,
  readEnum,
  readString,
  requireField,
  SpecError,
  type JsonObject,
} from '../spec/specFields';

export const VERDICTS = ['agrees', 'differs', 'fitted', 'bound'] as const;
export type Verdict = (typeof VERDICTS)[number];
export const SCALES = ['paper', 'lesson'] as const;
export type Scale = (typeof SCALES)[number];

export interface PaperVerdict {
  verdict: Verdict;
  /** agrees (required) and fitted (optional): how far ours may lie from the paper's figure, in
   * percent of it. */
  tolerancePercent: number | null;
  /** differs: why, in one sentence. */
  reason: string | null;
  /** fitted: which parameter of ours was set from this figure. */
  fitted: string | null;
  scale: Scale;
}

/** The fields a row's verdict takes (paper.ts adds them to the row's allowed keys). */
export const VERDICT_FIELDS = ['verdict', 'tolerance', 'reason', 'fitted', 'scale'] as const;

const PERCENT = /^(\d+(?:\.\d+)?)\s*%$/;
// Two sentences: an end mark, a space and a capital ("… time. The …"); "Eq. 3" and "e.g." pass.
const SECOND_SENTENCE = /[.!?]\s+[A-Z]/;

function oneSentence(value: unknown, path: string): string {
  const text = readString(value, path, 1, 300).trim();
  if (SECOND_SENTENCE.test(text))
    throw new SpecError(path, `"${text}" must be one sentence (say the rest in the prose)`);
  return text;
}

/** Reads and cross-checks a row's verdict fields (`hasBound`: the row sets `bound:`). */
export function readVerdict(o: JsonObject, path: string, hasBound: boolean): PaperVerdict {
  const verdict = readEnum(
    requireField(o, 'verdict', path, `: ${VERDICTS.join(', ')}`),
    join(path, 'verdict'),
    VERDICTS,
  );
  const scale = readEnum(
    requireField(o, 'scale', path, `: ${SCALES.join(' or ')} — whose settings ours ran at`),
    join(path, 'scale'),
    SCALES,
  );
  const only = (field: string, verdicts: Verdict[]) => {
    if (o[field] !== undefined && !verdicts.includes(verdict))
      throw new SpecError(
        join(path, field),
        `is for verdict ${verdicts.join(' or ')}, not ${verdict}`,
      );
  };
  only('tolerance', ['agrees', 'fitted']);
  only('reason', ['differs']);
  only('fitted', ['fitted']);
  let tolerancePercent: number | null = null;
  if (o.tolerance !== undefined || verdict === 'agrees') {
    const raw = requireField(o, 'tolerance', path, ' for agrees: e.g. 5%');
    const m = typeof raw === 'string' ? PERCENT.exec(raw.trim()) : null;
    if (!m || Number(m[1]) > 100)
      throw new SpecError(join(path, 'tolerance'), `${String(raw)} is not a percentage 0%..100%`);
    tolerancePercent = Number(m[1]);
  }
  if (verdict === 'bound' && !hasBound)
    throw new SpecError(
      join(path, 'verdict'),
      'bound needs `bound: above|below`: the side of the paper figure ours must lie on',
    );
  if (verdict !== 'bound' && verdict !== 'differs' && hasBound)
    throw new SpecError(
      join(path, 'verdict'),
      `${verdict} on a row whose paper figure is only a bound: use bound (or differs)`,
    );
  return {
    verdict,
    tolerancePercent,
    reason:
      verdict === 'differs'
        ? oneSentence(requireField(o, 'reason', path, ' for differs'), join(path, 'reason'))
        : null,
    fitted:
      verdict === 'fitted'
        ? oneSentence(requireField(o, 'fitted', path, ' for fitted'), join(path, 'fitted'))
        : null,
    scale,
  };
}

/** How far `ours` lies from `paper`, in percent of the paper's figure. */
export const percentOff = (ours: number, paper: number): number =>
  paper === 0 ? (ours === 0 ? 0 : Infinity) : (Math.abs(ours - paper) / Math.abs(paper)) * 100;

/**
 * Checks the verdict against the row's own numbers (`ours`: the value the build computed — the
 * twin's, the model's or the committed benchmark's; null when the row has only the visitor's
 * measurement). Returns the evidence line, or throws naming the row and both numbers.
 */
export function checkVerdict(
  v: PaperVerdict,
  id: string,
  path: string,
  paper: number,
  bound: 'above' | 'below' | null,
  ours: { value: number; text: string } | null,
): string | null {
  const needsValue = v.verdict === 'agrees' || v.verdict === 'bound' || v.tolerancePercent !== null;
  if (!ours) {
    if (needsValue)
      throw new SpecError(
        join(path, 'verdict'),
        `"${id}" is labelled ${v.verdict}, which the build checks, but the row has no value of ours the build computes (twin: or bench:)`,
      );
    return null;
  }
  if (v.verdict === 'bound') {
    const holds = bound === 'above' ? ours.value > paper : ours.value < paper;
    if (!holds)
      throw new SpecError(
        join(path, 'verdict'),
        `"${id}" is labelled bound (ours ${bound} ${paper}), but ${ours.text}`,
      );
    return `${ours.text} lies ${bound} the paper's ${paper}`;
  }
  if (v.tolerancePercent === null) return null;
  const off = percentOff(ours.value, paper);
  if (off > v.tolerancePercent)
    throw new SpecError(
      join(path, 'verdict'),
      `"${id}" is labelled ${v.verdict} within ${v.tolerancePercent}% of the paper's ${paper}, but ${ours.text} is ${off.toFixed(1)}% from it`,
    );
  return `${ours.text} is ${off.toFixed(1)}% from the paper's ${paper} (tolerance ${v.tolerancePercent}%)`;
}
