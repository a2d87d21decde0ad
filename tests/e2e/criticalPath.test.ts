// The budget guard (issue 41): the JavaScript a lesson route loads before its Run button answers
// stays within 170 KB gzipped, summed from the production build's manifest (dist/, which the e2e
// suite builds first) the way bench/load/criticalPath.mjs models the route. No browser and no
// clock: a split undone (a page imported statically again, a library pulled into the entry) fails
// here by size, whatever the machine's speed.
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CRITICAL_JS_BUDGET_KB, criticalPathReport } from '../../bench/load/criticalPath.mjs';
import { distDir } from './harness';

const root = resolve(__dirname, '../..');
const report = criticalPathReport(distDir, root);
const lessonCount = readdirSync(resolve(root, 'lessons')).filter((f) =>
  /^\d+-.*\.md$/.test(f),
).length;

describe('critical-path JavaScript of the built site', () => {
  it('is measured for the start page and every lesson', () => {
    expect(report.routes.map((r) => r.route)).toContain('home');
    expect(report.routes.length).toBe(lessonCount + 1);
  });

  it.each(report.routes.map((r) => [r.route, r] as const))(
    `%s loads at most ${CRITICAL_JS_BUDGET_KB} KB gzipped before it answers`,
    (_route, r) => {
      expect(r.kb, `${r.route}: ${r.files.join(', ')}`).toBeLessThanOrEqual(CRITICAL_JS_BUDGET_KB);
    },
  );

  it('keeps the presenter, replay files, the papers page and KaTeX off a lesson route', () => {
    const lessonFiles = report.routes.filter((r) => r.route !== 'home').flatMap((r) => r.files);
    for (const f of lessonFiles)
      expect(f).not.toMatch(/PresentPage|PapersPage|CountingPage|katex|recordingFile/);
  });
});
