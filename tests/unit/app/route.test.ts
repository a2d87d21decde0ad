// Hash routes: path and query survive a round trip; odd hashes fall back to the start page.
import { expect, test } from 'vitest';
import { parseRoute, routeHash, SHELL_PARAMS, shellQuery } from '../../../src/app/route';
import { unknownParamErrors } from '../../../src/app/queryParams';

test('parses path and query', () => {
  const r = parseRoute('#/lessons/bubbles?threads=4&tokens=8');
  expect(r.path).toBe('/lessons/bubbles');
  expect(r.query.get('threads')).toBe('4');
  expect(r.query.get('tokens')).toBe('8');
});

test('empty and bare hashes are the start page', () => {
  expect(parseRoute('').path).toBe('/');
  expect(parseRoute('#').path).toBe('/');
  expect(parseRoute('#?a=1').path).toBe('/');
});

test('routeHash round-trips', () => {
  const hash = routeHash('/threads', { threads: 3, layout: 'padded' });
  expect(hash).toBe('#/threads?threads=3&layout=padded');
  const back = parseRoute(hash);
  expect(Object.fromEntries(back.query)).toEqual({ threads: '3', layout: 'padded' });
});

test("the shell's parameters alone, so a repeated embed is said like a page's repeated keys", () => {
  const q = new URLSearchParams('embed=1&threads=2&embed=0');
  expect([...shellQuery(q)]).toEqual([
    ['embed', '1'],
    ['embed', '0'],
  ]);
  expect(unknownParamErrors(shellQuery(q), SHELL_PARAMS)).toEqual([
    'embed is given 2 times (1, 0); the first is used',
  ]);
});
