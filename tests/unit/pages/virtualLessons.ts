// What `virtual:lessons` (src/lessons/vitePlugin.ts) gives the app, for page tests in a DOM:
// the lessons of lessons/, loaded as the build loads them, and no lesson error.
import { resolve } from 'node:path';
import { loadLessons } from '../../../src/lessons/loadLessons';

const root = resolve(__dirname, '../../..');
const lessons = loadLessons(resolve(root, 'lessons'), root);
export default lessons;
export const lessonErrors: string[] = [];
