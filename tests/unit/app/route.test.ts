// Hash routes: path and query survive a round trip; odd hashes fall back to the start page.
import { expect, test } from 'vitest';
import { parseRoute, routeHash } from '../../../src/app/route';

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
