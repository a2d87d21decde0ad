// Service of a batch for the twins of the batch runtimes (two-stage I/O): the spec's service is
// per item (contracts/spec.md), so a batch of n items takes the sum of n draws — fixed services
// in one multiplication, so a paper-scale run of ten million items stays quick.
import type { ExperimentSpec } from '../spec/experimentSpec';
import type { ServiceSampler } from './serviceSampler';

/** µs of service for `n` items starting at item `first`. */
export type BatchService = (first: number, n: number) => number;

export function batchServices(spec: ExperimentSpec, samplers: ServiceSampler[]): BatchService[] {
  return spec.stages.map((stage, s) => {
    const service = stage.service;
    if (service.kind === 'fixed') return (_first, n) => n * service.us;
    return (_first, n) => {
      let us = 0;
      for (let i = 0; i < n; i++) us += samplers[s]();
      return us;
    };
  });
}
