// Previous and next lesson links at the end of a lesson (issue 39: a reader finishing one had to
// go back to the start page to find the next).
import { shellHref } from '../route';

interface Neighbour {
  slug: string;
  title: string;
  number: number;
}

export function LessonNav({ prev, next }: { prev: Neighbour | null; next: Neighbour | null }) {
  if (!prev && !next) return null;
  return (
    <nav className="lesson-nav" aria-label="Lessons" data-testid="lesson-nav">
      {prev && (
        <a href={shellHref(`/lessons/${prev.slug}`)} rel="prev" className="lesson-nav-prev">
          ← Lesson {prev.number}: {prev.title}
        </a>
      )}
      {next && (
        <a href={shellHref(`/lessons/${next.slug}`)} rel="next" className="lesson-nav-next">
          Lesson {next.number}: {next.title} →
        </a>
      )}
    </nav>
  );
}
