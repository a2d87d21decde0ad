// Which stages run together: the collapsed runtime fuses each run of consecutive parallel stages.
import type { ExperimentSpec } from './experimentSpec';

/**
 * Stage indices per group, in pipeline order. Collapsed: a run of consecutive parallel stages is
 * one group whose workers take an item through all of them, served by the sum of their threads;
 * serial stages stay alone. Other runtimes: one group per stage. Models and simulation share this.
 */
export function stageGroups(spec: ExperimentSpec): number[][] {
  const groups: number[][] = [];
  spec.stages.forEach((stage, i) => {
    const fuse =
      spec.runtime === 'collapsed' &&
      i > 0 &&
      stage.mode === 'parallel' &&
      spec.stages[i - 1].mode === 'parallel';
    if (fuse) groups[groups.length - 1].push(i);
    else groups.push([i]);
  });
  return groups;
}
