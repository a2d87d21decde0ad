// The benchmarks' method, in one place: contenders and targets are interleaved. For each group of
// contenders that are compared, round r runs every target once (one process each, back to back,
// in an order rotated by r), and inside a process the contenders run in an order rotated by r too,
// so neither a target nor a contender always runs first, and a change in load hits all of them.
// Every sample is one timed run of at least 100 ms, tagged with its round: ratios pair samples of
// the same round (see ratios.mjs).

/** The list rotated left by k: rotate([a, b, c], 1) = [b, c, a]. */
export function rotate(list, k) {
  const n = list.length;
  return list.map((_, i) => list[(((i + k) % n) + n) % n]);
}

/**
 * @param {{groups: string[], targets: string[], rounds: number,
 *   load: {sample(): void},
 *   runGroup: (job: {group: string, target: string, round: number}) => Promise<object[]>}} plan
 *   runGroup runs one process (or page) of one target on one group and returns its samples.
 * @returns {Promise<object[]>} every sample, tagged with target and round
 */
export async function runRounds({ groups, targets, rounds, load, runGroup }) {
  const samples = [];
  for (const group of groups) {
    for (let round = 0; round < rounds; ++round) {
      const order = rotate(targets, round);
      console.log(`${group}: round ${round + 1}/${rounds} (${order.join(', ')})`);
      for (const target of order) {
        const got = await runGroup({ group, target, round });
        samples.push(...got.map((sample) => ({ ...sample, target, round })));
      }
      load.sample();
    }
  }
  return samples;
}

/**
 * The flags every driver that runs rounds takes (bench/lib/cli.mjs specs): how many rounds,
 * which targets and groups (a subset of groups is a partial run, merged into the reports), and
 * whether to skip the build.
 */
export function roundFlags(targets, groups) {
  return {
    repeats: {
      type: 'integer',
      default: 5,
      min: 1,
      max: 50,
      help: 'rounds (one process per target and group each; the median is over them)',
    },
    targets: { type: 'list', default: targets, allowed: targets, help: 'targets to measure' },
    groups: {
      type: 'list',
      default: [],
      allowed: groups,
      help: 'groups to measure; a partial run merges its rows into the reports',
    },
    'skip-build': { type: 'boolean', help: 'use the programs built by an earlier run' },
  };
}

/** The groups a run measures, and what a partial run covered (undefined for a whole run). */
export function chosenGroups(flags, groups) {
  if (!flags.groups.length) return { groups, partial: undefined };
  return { groups: flags.groups, partial: `groups ${flags.groups.join(', ')}` };
}
