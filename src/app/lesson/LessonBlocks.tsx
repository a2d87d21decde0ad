// A run of lesson blocks: prose as rendered at build time (its claims' marks saying where they
// were checked when the page shows other settings), `::name` slots through the registry
// (`::stage` lines are the presenter's and show nothing here); a `::measure{id=…}` slot tells the
// measurement block which of the lesson's blocks it shows.
import type { ProseBlock } from '../../lessons/renderProse';
import { MeasureSlot } from '../measure/measureSlot';
import { Prose } from './Prose';
import { LESSON_COMPONENTS } from './registry';

export function LessonBlocks({ blocks }: { blocks: ProseBlock[] }) {
  return (
    <>
      {blocks.map((b, i) => {
        if (b.kind === 'html') return <Prose key={i} html={b.html} />;
        if (b.kind === 'stage') return null;
        const Component = LESSON_COMPONENTS[b.name];
        return (
          <div key={i} className={`slot slot-${b.name}`} data-component={b.name}>
            <MeasureSlot.Provider value={b.block ?? null}>
              <Component />
            </MeasureSlot.Provider>
          </div>
        );
      })}
    </>
  );
}
