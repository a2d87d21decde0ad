// The JavaScript a route needs before its first control answers, from the build's manifest
// (dist/.vite/manifest.json), gzipped as a host sends it. A route needs the entry (index.html's
// script) and, for a lesson, the modules the app loads before it draws the page
// (scripts/lib/routeModules.mjs), each with every chunk it imports statically. Shared by the load
// benchmark (its report) and the budget guard (tests/e2e/criticalPath.test.ts); neither opens a
// browser.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import {
  componentFiles,
  criticalComponents,
  LESSON_PAGE,
  lessonDataId,
  REGISTRY,
} from '../../scripts/lib/routeModules.mjs';

/** The most gzipped JavaScript a lesson route may load before Run answers (issue 41). */
export const CRITICAL_JS_BUDGET_KB = 170;

/** Every chunk file a manifest entry needs before it runs: itself and its static imports. */
export function staticClosure(manifest, keys) {
  const files = new Set();
  const visit = (key) => {
    const entry = manifest[key];
    if (!entry) throw new Error(`the build's manifest has no ${key}`);
    if (files.has(entry.file)) return;
    files.add(entry.file);
    for (const dep of entry.imports ?? []) visit(dep);
  };
  keys.forEach(visit);
  return files;
}

/**
 * @param {string} distDir  the built site (with .vite/manifest.json)
 * @param {string} repoRoot  for lessons/ and the registry
 * @returns {{budget_kb: number, routes: Array<{route: string, kb: number, files: string[]}>}
 *   | {budget_kb: number, routes: [], note: string}}
 */
export function criticalPathReport(distDir, repoRoot = join(distDir, '..')) {
  const manifestFile = join(distDir, '.vite', 'manifest.json');
  if (!existsSync(manifestFile))
    return { budget_kb: CRITICAL_JS_BUDGET_KB, routes: [], note: 'the build has no manifest' };
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
  const registry = componentFiles(readFileSync(join(repoRoot, REGISTRY), 'utf8'));
  const gzipKb = new Map();
  const sizeOf = (file) => {
    if (!gzipKb.has(file))
      gzipKb.set(file, gzipSync(readFileSync(join(distDir, file)), { level: 6 }).length / 1024);
    return gzipKb.get(file);
  };
  const measure = (route, keys) => {
    const files = [...staticClosure(manifest, keys)].filter((f) => f.endsWith('.js')).sort();
    const kb = files.reduce((a, f) => a + sizeOf(f), 0);
    return { route, kb: Math.round(kb * 10) / 10, files };
  };
  const lessonsDir = join(repoRoot, 'lessons');
  const routes = [measure('home', ['index.html'])];
  for (const file of readdirSync(lessonsDir).sort()) {
    const m = /^\d+-([a-z0-9-]+)\.md$/.exec(file);
    if (!m) continue;
    const names = criticalComponents(readFileSync(join(lessonsDir, file), 'utf8'));
    const missing = names.filter((n) => !registry.has(n));
    if (missing.length)
      throw new Error(
        `registry.ts has no loader line for ${missing.join(', ')} (placed by lessons/${file})`,
      );
    routes.push(
      measure(m[1], [
        'index.html',
        LESSON_PAGE,
        lessonDataId(m[1]),
        ...names.map((n) => registry.get(n)),
      ]),
    );
  }
  return { budget_kb: CRITICAL_JS_BUDGET_KB, routes };
}
