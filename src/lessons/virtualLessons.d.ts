// Types of the modules produced by src/lessons/vitePlugin.ts.
declare module 'virtual:lessons' {
  /** Every lesson's index entry, in order (the full lesson: lessonLoaders). */
  const lessons: import('./lessonEntry').LessonEntry[];
  export default lessons;
  /** Dev server only: one message per lesson file that failed validation (the build fails instead). */
  export const lessonErrors: string[];
  /** slug → the lesson's own module (a chunk of its own). */
  export const lessonLoaders: Record<
    string,
    () => Promise<{ default: import('./loadLessons').Lesson }>
  >;
}

declare module 'virtual:lesson-styles.css';
