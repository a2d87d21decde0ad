// A sieve's board as a run reports it, for the stream-graph tests: the spec's planned tasks, then
// filter tasks each spawned by the one before (a chain of `filters` with the planned one), and the
// chain's own streams, each filter to the one it spawned.
import type { ExperimentSpec } from '../../../src/spec/experimentSpec';
import type { BoardStream, BoardTask } from '../../../src/telemetry';
import { plannedStreams, plannedTasks } from '../../../src/views/streamGraphLayout';

/** `label(i)`: the prime of the i-th spawned filter. */
export function sieveBoard(spec: ExperimentSpec, filters: number, label: (i: number) => number) {
  const planned = plannedTasks(spec);
  const tasks: BoardTask[] = [
    ...planned,
    ...Array.from({ length: filters - 1 }, (_, i) => ({
      ...planned[1],
      id: planned.length + i,
      parent: i === 0 ? 1 : planned.length + i - 1,
      label: label(i),
    })),
  ];
  const links: BoardStream[] = tasks
    .filter((t) => t.parent !== null)
    .map((t, k) => ({
      ...plannedStreams(spec)[0],
      id: 100 + k,
      specIndex: null,
      fromTask: t.parent,
      toTask: t.id,
    }));
  return { tasks, links };
}
