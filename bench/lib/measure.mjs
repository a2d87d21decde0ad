// A measuring driver's run (queues, pipelines), the same for both: the rounds (rounds.mjs), then
// per target the samples become rows, the peers are checked (for every target before any file is
// written, so a missing peer leaves the old reports as they were), the machine block is built, a
// partial run is merged into the report on disk, the ratios are computed from every target's
// rows, and the reports are written and printed.
import { loadTracker, machineBlock } from './machine.mjs';
import { requirePeers } from './peers.mjs';
import { combine, readReport, writeReport } from './report.mjs';
import { chosenGroups, runRounds } from './rounds.mjs';
import { aggregate } from './samples.mjs';

/**
 * @param {{bench: string, allTargets: string[], allGroups: string[],
 *   flags: {repeats: number, targets: string[], groups: string[]},
 *   runGroup: (job: {group: string, target: string, round: number}) => Promise<object[]>,
 *   summarize: object, extra: (target: string) => object,
 *   ratios: (target: string, reports: Record<string, any>) => object[],
 *   print: (reports: Record<string, any>) => void}} bench
 *   runGroup: one process of one target on one group (rounds.mjs); summarize: aggregate()'s
 *   medians, ranges and series; extra: the machine block's own fields; ratios and print: the
 *   bench's report.mjs.
 */
export async function measure(bench) {
  const { flags } = bench;
  const { groups, partial } = chosenGroups(flags, bench.allGroups);
  const load = loadTracker();
  const runId = new Date().toISOString();
  const samples = await runRounds({
    groups,
    targets: flags.targets,
    rounds: flags.repeats,
    load,
    runGroup: bench.runGroup,
  });
  publish({
    ...bench,
    targets: flags.targets,
    samples,
    rounds: flags.repeats,
    runId,
    load,
    partial,
  });
}

/**
 * @param {{bench: string, targets: string[], allTargets: string[], samples: object[],
 *   rounds: number, runId: string, load: ReturnType<typeof import('./machine.mjs').loadTracker>,
 *   partial?: string,
 *   summarize: object, extra: (target: string) => object,
 *   ratios: (target: string, reports: Record<string, any>) => object[],
 *   print: (reports: Record<string, any>) => void}} run
 *   summarize: aggregate()'s medians, ranges and series; extra: the machine block's own fields.
 */
function publish(run) {
  const { bench, targets, samples, load, partial } = run;
  const reports = {};
  for (const target of targets) {
    const fresh = aggregate(
      samples.filter((s) => s.target === target),
      { bench, rounds: run.rounds, runId: run.runId, ...run.summarize },
    );
    requirePeers(bench, target, fresh);
    const machine = machineBlock(load, run.extra(target));
    reports[target] = combine(`${bench}-${target}`, machine, fresh, partial);
  }
  const onDisk = Object.fromEntries(
    run.allTargets
      .map((t) => [t, readReport(`${bench}-${t}`)])
      .filter(([t, report]) => report && !targets.includes(t)),
  );
  const all = { ...onDisk, ...reports };
  for (const target of targets) {
    reports[target].ratios = run.ratios(target, all);
    writeReport(`${bench}-${target}`, reports[target]);
  }
  run.print(Object.fromEntries(run.allTargets.filter((t) => all[t]).map((t) => [t, all[t]])));
}
