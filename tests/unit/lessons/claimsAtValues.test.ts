// A sentence checked at the defaults says so ("✓ at the defaults") once the page shows other
// settings, where it may be false; one checked with `at` names its settings in its words and keeps
// its plain mark; at the defaults every mark is plain.
import { expect, test } from 'vitest';
import type { CheckedClaim } from '../../../src/lessons/claims';
import type { LessonControl } from '../../../src/lessons/controls';
import { proseAtValues } from '../../../src/lessons/claimMarks';
import { renderProse } from '../../../src/lessons/renderProse';

const claim = (id: string, at: CheckedClaim['at']): CheckedClaim => ({
  id,
  says: id,
  check: 'x > 1',
  evidence: ['at the defaults: 2 > 1'],
  at,
});
const claims = [claim('busy', [{}]), claim('with-three', [{ threads: 3 }])];
const controls = [
  { kind: 'range', id: 'threads', defaultValue: 1 },
  { kind: 'range', id: 'queue', defaultValue: 4 },
] as unknown as LessonControl[];
const [block] = renderProse(
  'Extract is [busy nearly all the time](claim:busy), as [it is again](claim:busy). ' +
    '[With 3 threads, rank is the slowest](claim:with-three).',
  claims,
);
const html = block.kind === 'html' ? block.html : '';
const marked = (values: Record<string, number>) =>
  [
    ...proseAtValues(html, claims, controls, values).matchAll(
      /data-claim="([^"]+)" data-settings="other"[^>]*>[^<]*<sup[^>]*>✓ at the defaults</g,
    ),
  ].map((m) => m[1]);

test('at the defaults no mark changes', () => {
  expect(proseAtValues(html, claims, controls, { threads: 1, queue: 4 })).toBe(html);
});

test('at other settings both sentences citing the defaults claim say where it was checked', () => {
  expect(marked({ threads: 1, queue: 1 })).toEqual(['busy', 'busy']);
  expect(marked({ threads: 3, queue: 4 })).toEqual(['busy', 'busy']);
});

test('a claim checked with `at` keeps its plain mark at any settings', () => {
  const out = proseAtValues(html, claims, controls, { threads: 2, queue: 9 });
  expect(out).toContain('data-claim="with-three" tabindex="0"');
  expect(out.match(/✓<\/sup>/g)).toHaveLength(1);
});

test('every claimed sentence is a Tab stop carrying its evidence for the focus box', () => {
  const spans = [...html.matchAll(/<span class="claim"[^>]*>/g)].map((m) => m[0]);
  expect(spans).toHaveLength(3);
  for (const span of spans) {
    expect(span).toContain('tabindex="0"');
    const title = span.match(/ title="([^"]*)"/)?.[1];
    expect(title).toContain('at the defaults: 2 &gt; 1');
    expect(span).toContain(`data-evidence="${title}"`);
  }
});
