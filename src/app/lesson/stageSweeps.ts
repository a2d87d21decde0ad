// The sweeps of the components on screen, for the presenter's keys: a step's chart may have a
// sweep of its own (lesson 3's layouts, lesson 7's cores) besides the model chart's, and `s` must
// run the one the audience sees. Each component offers what its Sweep button does while it is
// mounted (useStageSweep.ts); `s` runs the newest offer, and none means the step has no sweep to
// run. Stopping is the page planner's: `r` stops whatever plan runs.

export type StageSweep = () => void;

export class StageSweeps {
  private readonly offers: StageSweep[] = [];

  /** Offers a sweep until the returned function withdraws it. */
  offer(sweep: StageSweep): () => void {
    this.offers.push(sweep);
    return () => {
      const at = this.offers.indexOf(sweep);
      if (at >= 0) this.offers.splice(at, 1);
    };
  }

  /** Runs the newest offered sweep; false when no component on screen offers one. */
  run(): boolean {
    const sweep = this.offers.at(-1);
    sweep?.();
    return sweep !== undefined;
  }
}
