// The glossary: a marked term renders as a focusable <dfn data-term> (inside a claim's sentence
// too), an unknown term fails the build naming the line and the known terms, every term issue 40
// lists is in the glossary and marked in the lessons, and in every lesson the first place a
// glossary term occurs is marked — so a reader meets each term with its definition.
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { GLOSSARY, TERM_IDS, TERM_MARK } from '../../../src/lessons/glossary';
import { renderProse } from '../../../src/lessons/renderProse';
import type { CheckedClaim } from '../../../src/lessons/claims';

const dir = resolve(__dirname, '../../../lessons');
const lessonFiles = readdirSync(dir).filter((f) => /^\d\d-.*\.md$/.test(f));
const textOf = (file: string) => readFileSync(resolve(dir, file), 'utf8');
const bodyOf = (file: string) => textOf(file).split(/^---$/m).slice(2).join('---');

const htmlOf = (body: string, claims: CheckedClaim[] = []) =>
  renderProse(body, claims)
    .map((b) => (b.kind === 'html' ? b.html : ''))
    .join('');

test('a marked term is a focusable dfn naming its term, its text kept (a formula too)', () => {
  const html = htmlOf('The [[twin]] runs; [[$T_{arr}$|t-arr]] is a time.');
  expect(html).toContain('<dfn class="term" data-term="twin" tabindex="0">twin</dfn> runs');
  expect(html).toMatch(/<dfn class="term" data-term="t-arr" tabindex="0"><span class="katex">/);
});

test('a term inside a checked sentence is marked inside the claim', () => {
  const claim = { id: 'fast', evidence: ['x = 1'] } as unknown as CheckedClaim;
  const html = htmlOf('[the [[twin]] is fast](claim:fast)', [claim]);
  expect(html).toMatch(/data-claim="fast"[^>]*>the <dfn class="term" data-term="twin"/);
});

test('an unknown term fails, naming its line and the terms there are', () => {
  expect(() => htmlOf('One.\n\nThe [[wormhole]] is fast.')).toThrow(
    /^line 3: \[\[wormhole\]\]: wormhole is not a glossary term \(src\/lessons\/glossary\.ts: twin, bubble,/,
  );
  expect(() => htmlOf('A [[Case One|case-one]].')).toThrow(/case-one is not a glossary term/);
});

// Issue 40's list: terms the lessons used before defining them.
const LISTED = [
  'twin',
  'case-1',
  'case-2',
  'case-3',
  't-arr',
  'erlang-b',
  'npth',
  'capability-rule',
  'futex',
  'adjacent-line-prefetcher',
  'closed-model',
  'open-model',
];

test('the glossary defines every listed term, and some lesson marks each of them', () => {
  const marked = new Set(
    lessonFiles.flatMap((f) => [...bodyOf(f).matchAll(TERM_MARK)].map((m) => m[2] ?? m[1].trim())),
  );
  for (const id of LISTED) {
    expect(TERM_IDS).toContain(id);
    expect(marked, id).toContain(id);
  }
  for (const id of TERM_IDS) expect(GLOSSARY[id].definition.length).toBeGreaterThan(40);
});

/** The body with what is not prose blanked out (same length, so places stay): claim targets,
 * `::` lines, and HTML tags. */
function proseOnly(body: string): string {
  const blank = (m: string) => m.replace(/[^\n]/g, ' ');
  return body
    .replace(/\]\(claim:[^)]*\)/g, blank)
    .replace(/^::.*$/gm, blank)
    .replace(/<[^>\n]+>/g, blank);
}

describe.each(lessonFiles)('%s', (file) => {
  const body = bodyOf(file);
  const text = proseOnly(body);
  const marks = [...body.matchAll(TERM_MARK)].map((m) => ({
    id: m[2] ?? m[1].trim(),
    from: m.index,
    to: m.index + m[0].length,
  }));
  test.each(TERM_IDS)('%s is marked where the lesson first uses it', (id) => {
    const first = GLOSSARY[id].firstUse.exec(text);
    if (!first) return;
    const at = first.index;
    const mark = marks.find((m) => m.from <= at && at < m.to);
    // The line in the file: the front matter's lines, then the body's.
    const whole = textOf(file);
    const line = whole.slice(0, whole.length - body.length + at).split('\n').length;
    expect(
      mark?.id,
      `${file}:${line}: "${first[0]}" is the lesson's first use of ${id}; mark it [[…|${id}]]`,
    ).toBe(id);
  });
});
