// Type of the build-time module produced by src/lessons/vitePlugin.ts.
declare module 'virtual:lessons' {
  const lessons: import('./loadLessons').Lesson[];
  export default lessons;
}
