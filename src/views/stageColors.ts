// Stage colours shared by PipelineView and Timeline: Tableau10 without the red, purple and grey
// that the Timeline keeps for blocked, stealing and idle.
import { schemeTableau10 } from 'd3';

/** Tableau10 indices of red, purple and grey. */
const STATE_INDICES = new Set([2, 6, 9]);

/** The stage palette, in order; stage i uses entry i modulo its length. */
export const STAGE_PALETTE: readonly string[] = schemeTableau10.filter(
  (_c, i) => !STATE_INDICES.has(i),
);

/** Colour of stage `stage` (any integer index; negative or fractional falls back to the first). */
export function stageColor(stage: number): string {
  const i = Number.isInteger(stage) && stage >= 0 ? stage : 0;
  return STAGE_PALETTE[i % STAGE_PALETTE.length];
}
