// Which of a lesson's measurement blocks a `::measure{id=…}` slot shows: a module of its own, so the
// lesson page can say it without loading the measurement block's code (a chunk of its own, loaded
// when a lesson places it: src/app/lesson/registry.ts).
import { createContext } from 'react';

/** The block a `::measure{id=…}` slot shows (LessonBlocks provides it). Without one (a view
 * placed by name, as the presenter's stage does) every block of the lesson is shown. */
export const MeasureSlot = createContext<string | null>(null);
