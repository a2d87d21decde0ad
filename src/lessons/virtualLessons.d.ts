// Type of the module produced by src/lessons/vitePlugin.ts.
declare module 'virtual:lessons' {
  const lessons: import('./loadLessons').Lesson[];
  export default lessons;
  /** Dev server only: one message per lesson file that failed validation (the build fails instead). */
  export const lessonErrors: string[];
}

declare module 'virtual:lesson-styles.css';
