// What the twins of the batch runtimes (the two-stage I/O, C++: two_stage_io/) share: services
// of whole batches — the spec's service is per item (contracts/spec.md), so a batch of n items
// takes the sum of n draws, fixed services in one multiplication so a paper-scale run of ten
// million items stays quick — counted in items, with start/end events that carry the batch in
// `item` and its items in `arg` (contracts/telemetry.md); and the cores as one pool the threads
// migrate over (Dempsey ran more threads than cores and let the OS move them), not the pinned
// thread-packing model.
import type { ExperimentSpec } from '../spec/experimentSpec';
import { CompletionClock } from './completionClock';
import type { ServiceSampler } from './serviceSampler';
import { SimCore } from './simCore';
import type { TelemetrySink } from './telemetry';

/** µs of service for `n` items starting at item `first`. */
type BatchService = (first: number, n: number) => number;

function batchServices(spec: ExperimentSpec, samplers: ServiceSampler[]): BatchService[] {
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

/** Service steps a batch twin simulates: per stage, one per batch when the service is fixed
 * (one multiplication), else one draw per item. The claims' work budget counts these, so a
 * paper-scale run of ten million items in batches of 1,024 costs what it really costs. */
export function batchTwinSteps(spec: ExperimentSpec): number {
  const batches = Math.ceil(spec.items / spec.batchItems!);
  return spec.stages.reduce(
    (sum, st) => sum + (st.service.kind === 'fixed' ? batches : spec.items),
    0,
  );
}

export abstract class BatchTwin extends SimCore {
  readonly clock: CompletionClock;
  protected readonly batchItems: number;
  protected readonly batches: number;
  private readonly service: BatchService[];
  /** Per worker: the batch in hand (-1: none). */
  protected readonly batchOf: Int32Array;
  /** The serial variant's one worker: the stage it is serving (both stages, one after the other). */
  protected readonly sub = new Int32Array(1);

  constructor(
    protected readonly spec: ExperimentSpec,
    samplers: ServiceSampler[],
    cores: number,
    sink: TelemetrySink | undefined,
  ) {
    super(spec.seed, spec.stages.length, spec.threads, cores, sink, 'migrating');
    this.batchItems = spec.batchItems!;
    this.batches = Math.ceil(spec.items / this.batchItems);
    this.service = batchServices(spec, samplers);
    this.clock = new CompletionClock(spec.items);
    this.batchOf = new Int32Array(spec.threads).fill(-1);
  }

  /** Where worker w looks for work (a subclass calls startAll() once it is set up). */
  protected abstract acquire(w: number): void;

  protected startAll(): void {
    for (let w = 0; w < this.workerCount; w++) this.acquire(w);
  }

  protected itemsIn(batch: number): number {
    return Math.min(this.batchItems, this.spec.items - batch * this.batchItems);
  }

  /** Worker w starts serving `batch` at `stage`; the start event carries `arg` (default: its
   * items; the C++ scan records 0, not knowing them yet). */
  protected startService(w: number, stage: number, batch: number, arg = this.itemsIn(batch)) {
    const n = this.itemsIn(batch);
    this.batchOf[w] = batch;
    this.counters[stage].itemsIn += n;
    this.emit('start', w, stage, batch, arg);
    this.serve(w, this.service[stage](batch * this.batchItems, n));
  }

  /** Books worker w's finished service of its batch at `stage`; returns the batch. */
  protected endService(w: number, stage: number): number {
    const batch = this.batchOf[w];
    const n = this.itemsIn(batch);
    this.counters[stage].busyUs += this.serviceWallUs(w);
    this.counters[stage].itemsOut += n;
    this.emit('end', w, stage, batch, n);
    return batch;
  }

  protected timer(): void {}
}
