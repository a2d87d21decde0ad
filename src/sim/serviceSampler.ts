// Draws service times (µs) for a stage from its ExperimentSpec distribution.
import { meanServiceUs, type MeasuredServiceUs } from '../model/serviceTime';
import type { ExperimentSpec } from '../spec/experimentSpec';
import { Xoshiro128 } from './prng';

export type ServiceSampler = () => number;

/**
 * One sampler per stage, each with a stream of its own derived from the seed: the k-th service a
 * stage starts gets its stream's k-th draw, whatever the other stages do. So runs that differ in
 * one stage's threads (a sweep's points) give every other stage the same services — common random
 * numbers: the difference between two points is the setting's, not the luck of the draw. With one
 * stream shared in event order, as before, rank's draws depended on how many extract threads
 * interleaved with them, and lesson 1's sweep past the bottleneck showed a false odd/even sawtooth
 * (116 against 131 items/s at 300 items). Kernels run at their measured mean (fixed): the
 * simulation has no kernel code to time.
 */
export function stageSamplers(
  spec: ExperimentSpec,
  seed: number,
  measured: MeasuredServiceUs = [],
): ServiceSampler[] {
  return spec.stages.map((stage, i) => {
    const s = stage.service;
    // Xoshiro128 expands its seed through splitmix32: neighbouring seeds give unrelated streams.
    const rng = new Xoshiro128((seed + Math.imul(i + 1, 0x9e3779b9)) >>> 0);
    switch (s.kind) {
      case 'fixed':
        return () => s.us;
      case 'exponential':
        return () => -s.meanUs * Math.log(1 - rng.uniform());
      case 'uniform':
        return () => s.minUs + (s.maxUs - s.minUs) * rng.uniform();
      case 'bimodal':
        return () => (rng.uniform() < s.slowFraction ? s.slowUs : s.fastUs);
      case 'kernel': {
        const us = meanServiceUs(s, measured[i]);
        return () => us;
      }
    }
  });
}
