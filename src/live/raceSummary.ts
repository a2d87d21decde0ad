// What the race's views draw, from the runs measured on the visitor's threads: per measurement
// (queue, variant, chain length, semi-buffer, ...) the median rate over its repeats with min and
// max, and ratios between two measurements paired by round (each ratio of runs taken side by side,
// then their median and range) — the same method as the queue benchmark (bench/lib/ratios.mjs),
// so a ratio's spread says whether the question is decided.
import { raceKey, type RaceConfig, type RaceResult } from '../spec/raceConfig';
import { spreadOf, type Spread } from '../model/spread';

/** A run as the page keeps it: the result, and which plan and round of it measured it. */
export interface RaceRun extends RaceResult {
  plan: number;
  round: number;
}

export interface Measured {
  /** Items per second: median over the repeats, with min and max. */
  rate: Spread;
  repeats: number;
  runs: RaceRun[];
}

/** A plan the session ran: its id and the measurements it planned (raceKey of each config). */
export interface RacePlanInfo {
  id: number;
  keys: ReadonlySet<string>;
}

/**
 * The runs of the newest plan that planned every one of `configs`, finished or still running: what
 * a panel's bars and its paired ratio describe, so both come from the same rounds ("each bar is the
 * middle round" holds, and the bars' medians and the ratio's rounds are the same runs). A race of
 * every queue covers the panels that compare a few of them; a panel's own plan replaces it when it
 * is newer. Empty before any such plan.
 */
export function runsOfNewestPlan(
  results: RaceRun[],
  plans: readonly RacePlanInfo[],
  configs: RaceConfig[],
): RaceRun[] {
  const wanted = configs.map(raceKey);
  for (let i = plans.length - 1; i >= 0; i--) {
    const plan = plans[i];
    if (wanted.every((k) => plan.keys.has(k))) return results.filter((r) => r.plan === plan.id);
  }
  return [];
}

/** Each of `configs` as the newest plan that planned them all measured it (runsOfNewestPlan),
 * in the order given: what a panel draws. */
export function measuredInNewestPlan(
  results: RaceRun[],
  plans: readonly RacePlanInfo[],
  configs: RaceConfig[],
): Array<Measured | null> {
  const runs = runsOfNewestPlan(results, plans, configs);
  return configs.map((c) => measured(runs, c));
}

/** Every repeat of the measurement `config` names (its defaults filled), or null. */
export function measured(results: RaceRun[], config: RaceConfig): Measured | null {
  const key = raceKey(config);
  const runs = results.filter((r) => raceKey(r.config) === key);
  if (runs.length === 0) return null;
  return { rate: spreadOf(runs.map((r) => r.itemsPerS)), repeats: runs.length, runs };
}

export interface PairedRatio extends Spread {
  /** Rounds that had both measurements. */
  pairs: number;
}

/**
 * a / b paired by round: each round of a plan that ran both gives a's rate over b's (the plans run
 * every contender once per round, seconds apart), then their median, min and max. Null until a
 * round has both.
 */
export function pairedRatio(a: Measured | null, b: Measured | null): PairedRatio | null {
  if (!a || !b) return null;
  const ratios: number[] = [];
  for (const x of a.runs) {
    const y = b.runs.find((r) => r.plan === x.plan && r.round === x.round);
    if (y) ratios.push(x.itemsPerS / y.itemsPerS);
  }
  if (ratios.length === 0) return null;
  return { ...spreadOf(ratios), pairs: ratios.length };
}

/** Seconds per item at the bottleneck: the paper's T_comm when the stages do nothing else. */
export const secondsPerItem = (m: Measured) => 1 / m.rate.median;

/** Whether a ratio's whole range lies on one side of `goal` (the spread decides the question). */
export function decided(r: PairedRatio, goal: number): 'above' | 'below' | 'undecided' {
  if (r.min >= goal) return 'above';
  if (r.max < goal) return 'below';
  return 'undecided';
}
