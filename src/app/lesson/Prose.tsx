// Lesson prose as the page shows it at the current control values (proseAtValues: a sentence
// checked at the defaults says so once the controls leave them). Worked out when the values
// change, not on each of the frames a run redraws the page.
import { useMemo } from 'react';
import { proseAtValues } from '../../lessons/claimMarks';
import { useLesson } from './lessonContext';

export function Prose({
  html,
  as: Tag = 'div',
  className = 'prose',
  testId,
}: {
  html: string;
  as?: 'div' | 'section';
  className?: string;
  testId?: string;
}) {
  const { lesson, values } = useLesson();
  const shown = useMemo(
    () => proseAtValues(html, lesson.claims, lesson.controls, values),
    [html, lesson, values],
  );
  return (
    <Tag className={className} data-testid={testId} dangerouslySetInnerHTML={{ __html: shown }} />
  );
}
