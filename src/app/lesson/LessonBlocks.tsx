// A run of lesson blocks: prose as rendered at build time, `::name` slots through the registry
// (`::stage` lines are the presenter's and show nothing here).
import type { ProseBlock } from '../../lessons/renderProse';
import { LESSON_COMPONENTS } from './registry';

export function LessonBlocks({ blocks }: { blocks: ProseBlock[] }) {
  return (
    <>
      {blocks.map((b, i) => {
        if (b.kind === 'html')
          return <div key={i} className="prose" dangerouslySetInnerHTML={{ __html: b.html }} />;
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
