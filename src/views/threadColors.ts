// Thread colours for the phaser views (which thread runs which task): Dark2, apart from the stage
// palette so a task's thread never reads as a stage.
import { schemeDark2 } from 'd3';

/** Colour of pool thread `thread` (wraps after eight). */
export function threadColor(thread: number): string {
  const i = Number.isInteger(thread) && thread >= 0 ? thread : 0;
  return schemeDark2[i % schemeDark2.length];
}
