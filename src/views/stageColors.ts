// Stage colours shared by PipelineView and Timeline: Tableau10 without the red, purple and grey
// that the Timeline keeps for blocked, stealing and idle.

/** d3's schemeTableau10, written out: importing one scheme from d3 brought all of d3-scale-chromatic
 * (16 KB) onto every lesson's first load. tests/unit/views/palettes.test.ts holds it to d3's. */
export const TABLEAU10 = [
  '#4e79a7',
  '#f28e2c',
  '#e15759',
  '#76b7b2',
  '#59a14f',
  '#edc949',
  '#af7aa1',
  '#ff9da7',
  '#9c755f',
  '#bab0ab',
] as const;

/** Tableau10 indices of red, purple and grey. */
const STATE_INDICES = new Set([2, 6, 9]);

/** The stage palette, in order; stage i uses entry i modulo its length. */
export const STAGE_PALETTE: readonly string[] = TABLEAU10.filter((_c, i) => !STATE_INDICES.has(i));

/** Colour of stage `stage` (any integer index; negative or fractional falls back to the first). */
export function stageColor(stage: number): string {
  const i = Number.isInteger(stage) && stage >= 0 ? stage : 0;
  return STAGE_PALETTE[i % STAGE_PALETTE.length];
}
