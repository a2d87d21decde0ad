// A run of lesson blocks: prose as rendered at build time (its claims' marks saying where they
// were checked when the page shows other settings), `::name` slots through the registry
// (`::stage` lines are the presenter's and show nothing here).
import { proseAtValues, type ProseBlock } from '../../lessons/renderProse';
import { useLesson } from './lessonContext';
import { LESSON_COMPONENTS } from './registry';

export function LessonBlocks({ blocks }: { blocks: ProseBlock[] }) {
  const { lesson, values } = useLesson();
  return (
    <>
      {blocks.map((b, i) => {
        if (b.kind === 'html')
          return (
            <div
              key={i}
              className="prose"
              dangerouslySetInnerHTML={{
                __html: proseAtValues(b.html, lesson.claims, lesson.controls, values),
              }}
            />
          );
        if (b.kind === 'stage') return null;
        const Component = LESSON_COMPONENTS[b.name];
        return (
          <div key={i} className={`slot slot-${b.name}`} data-component={b.name}>
            <Component />
          </div>
        );
      })}
    </>
  );
}
