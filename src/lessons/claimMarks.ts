// The markup of a sentence backed by a checked claim, shared by the two places that write it: the
// lesson build (renderProse.ts marks each cited sentence) and the page (proseAtValues re-marks the
// sentences checked at the defaults when the controls leave them). Its own file so the page's
// bundle takes this without the build's markdown and TeX renderers.
import { checkedAtDefaultsOnly, type CheckedClaim } from './claims';
import type { ControlValues, LessonControl } from './controls';

const escapeAttr = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const CLAIM_MARK = '<sup class="claim-mark" aria-label="checked claim">✓</sup>';

/** A sentence backed by a checked claim: marked, with the numbers that were checked as its title
 * (shown on hover) and in data-evidence (shown on keyboard focus: the sentence is a Tab stop, and
 * a focused element's title is its accessible description, which a screen reader reads out). */
export function claimSpan(claim: CheckedClaim, html: string): string {
  const title = escapeAttr(`Checked when the lesson was built: ${claim.evidence.join('; ')}`);
  return `<span class="claim" data-testid="claim" data-claim="${claim.id}" tabindex="0" title="${title}" data-evidence="${title}">${html}${CLAIM_MARK}</span>`;
}

/** The prose as the page shows it at `values`: the marks of claims about the defaults say so
 * ("✓ at the defaults") when the page shows other settings, at which they may not hold. */
export function proseAtValues(
  html: string,
  claims: CheckedClaim[],
  controls: LessonControl[],
  values: ControlValues,
): string {
  const marked = `<sup class="claim-mark other" aria-label="checked claim, at the defaults, not at the settings on this page">✓ at the defaults</sup>`;
  if (controls.every((c) => String(values[c.id]) === String(c.defaultValue))) return html;
  let out = html;
  for (const c of claims.filter(checkedAtDefaultsOnly)) {
    const span = `data-claim="${c.id}"`;
    // Every sentence that cites it (a claim may back more than one).
    for (let start = out.indexOf(span); start >= 0; start = out.indexOf(span, start + 1)) {
      const mark = out.indexOf(CLAIM_MARK, start);
      if (mark < 0) break;
      out =
        out.slice(0, start) +
        `${span} data-settings="other"` +
        out.slice(start + span.length, mark) +
        marked +
        out.slice(mark + CLAIM_MARK.length);
    }
  }
  return out;
}
