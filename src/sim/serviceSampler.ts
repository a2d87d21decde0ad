// Draws service times (µs) for a stage from its ExperimentSpec distribution.
import { meanServiceUs, type MeasuredServiceUs } from '../model/serviceTime';
import type { ExperimentSpec } from '../spec/experimentSpec';
import type { Xoshiro128 } from './prng';

export type ServiceSampler = () => number;

/** One sampler per stage; all draw from the run's single PRNG, in event order (reproducible).
 * Kernels run at their measured mean (fixed): the simulation has no kernel code to time. */
export function stageSamplers(
  spec: ExperimentSpec,
  rng: Xoshiro128,
  measured: MeasuredServiceUs = [],
): ServiceSampler[] {
  return spec.stages.map((stage, i) => {
    const s = stage.service;
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
