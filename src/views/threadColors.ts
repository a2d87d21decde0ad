// Thread colours for the phaser views (which thread runs which task): Dark2, apart from the stage
// palette so a task's thread never reads as a stage.

/** d3's schemeDark2, written out (as stageColors.ts's Tableau10, and held to d3's by the same test). */
export const DARK2 = [
  '#1b9e77',
  '#d95f02',
  '#7570b3',
  '#e7298a',
  '#66a61e',
  '#e6ab02',
  '#a6761d',
  '#666666',
] as const;

/** Colour of pool thread `thread` (wraps after eight). */
export function threadColor(thread: number): string {
  const i = Number.isInteger(thread) && thread >= 0 ? thread : 0;
  return DARK2[i % DARK2.length];
}
