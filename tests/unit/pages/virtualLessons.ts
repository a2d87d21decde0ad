// What `virtual:lessons` (src/lessons/vitePlugin.ts) gives the app, for page tests in a DOM:
// the index of the lessons of lessons/, loaded as the build loads them, each lesson's own module
// as a loader, and no lesson error.
import { resolve } from 'node:path';
import { lessonEntry } from '../../../src/lessons/lessonEntry';
import { loadLessons } from '../../../src/lessons/loadLessons';

const root = resolve(__dirname, '../../..');
const lessons = loadLessons(resolve(root, 'lessons'), root);
export default lessons.map(lessonEntry);
export const lessonErrors: string[] = [];
export const lessonLoaders = Object.fromEntries(
  lessons.map((l) => [l.slug, () => Promise.resolve({ default: l })]),
);
