// Inline styles become classes: every style="" of KaTeX's markup moves into a class with one rule
// per distinct style, classes merge with existing ones, and the stylesheet keeps the declarations.
import katex from 'katex';
import { expect, test } from 'vitest';
import { inlineStyleSheet, moveInlineStyles } from '../../../src/lessons/inlineStyles';

test('a formula keeps no inline style, and every moved style has its rule', () => {
  const html = katex.renderToString(
    String.raw`\lambda_i = \sum_{n=0}^{N} \frac{(N-n)P_n(i)}{T_{arr}}`,
  );
  const before = [...html.matchAll(/style="([^"]*)"/g)].map((m) => m[1]);
  expect(before.length).toBeGreaterThan(5);
  const rules = new Map<string, string>();
  const out = moveInlineStyles(html, rules);
  expect(out).not.toMatch(/\sstyle=/);
  expect(new Set(rules.values())).toEqual(new Set(before.map((s) => s.trim())));
  for (const cls of rules.keys()) expect(out).toContain(cls);
});

test('classes merge, identical styles share a class, other attributes stay', () => {
  const rules = new Map<string, string>();
  const out = moveInlineStyles(
    '<span class="a b" style="height:1em;" data-x="1">x</span><i style="height:1em;">y</i><br/>',
    rules,
  );
  expect(rules.size).toBe(1);
  const [cls] = rules.keys();
  expect(out).toBe(`<span class="a b ${cls}" data-x="1">x</span><i class="${cls}">y</i><br/>`);
  expect(inlineStyleSheet(rules)).toBe(`.${cls}{height:1em !important}`);
});

test('a style this build cannot move is an error, not a silently broken page', () => {
  expect(() => moveInlineStyles(`<b style='color:red'>x</b>`, new Map())).toThrow(
    /an inline style this build cannot move/,
  );
});
