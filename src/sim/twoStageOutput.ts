// The twin of the two-stage output runtime (Dempsey, seed 002; C++: two_stage_io/output_runtime.hpp):
// N formatters fill buffers from a fixed pool, one writer writes the batches strictly in order
// and returns each buffer; dual-thread is N = 1; serial is one worker that formats a batch, then
// writes it. Same telemetry as the C++ runtime (contracts/telemetry.md, batch runtimes).
import type { ExperimentSpec } from '../spec/experimentSpec';
import { batchServices, type BatchService } from './batchService';
import { CompletionClock } from './completionClock';
import { Fifo } from './fifo';
import type { ServiceSampler } from './serviceSampler';
import { SimCore, Wait } from './simCore';
import { NO_ITEM, type TelemetrySink } from './telemetry';

const FORMAT = 0;
const WRITE = 1;

/**
 * Formatters take a free buffer (or wait for one: blocked-full) and then the next batch number,
 * format it (the sum of its items' service draws) and hand it to the writer; the writer waits
 * for batch `next` (blocked-empty), writes it, completes its items and frees its buffer, waking
 * the longest-waiting formatter. Workers 0..N-1 format, worker N writes (serial: worker 0 both).
 * Stage counters count items; stage 1's queueOccupancy is batches formatted and not yet taken.
 */
export class TwoStageOutputTwin extends SimCore {
  readonly clock: CompletionClock;
  private readonly formatters: number;
  private readonly batchItems: number;
  private readonly batches: number;
  private readonly service: BatchService[];
  private readonly freeBuffers = new Fifo();
  private readonly bufferWaiters = new Fifo();
  /** batch → buffer, for batches formatted and not yet written. */
  private readonly ready = new Map<number, number>();
  /** Per worker: the batch and buffer in hand (-1: none). */
  private readonly batchOf: Int32Array;
  private readonly bufferOf: Int32Array;
  /** Serial variant: the stage worker 0 is serving (it formats a batch, then writes it). */
  private readonly sub = new Int32Array(1);
  private nextBatch = 0;
  private nextWrite = 0;
  private writerWaiting = false;

  constructor(
    private readonly spec: ExperimentSpec,
    samplers: ServiceSampler[],
    cores: number,
    sink: TelemetrySink | undefined,
  ) {
    // Dempsey ran more threads than cores (formatters + the writer) and let the OS move them:
    // the cores are one shared pool here, not the pinned thread-packing model.
    super(spec.seed, spec.stages.length, spec.threads, cores, sink, 'migrating');
    this.formatters = spec.variant === 'serial' ? 0 : spec.stages[FORMAT].threads;
    this.batchItems = spec.batchItems!;
    this.batches = Math.ceil(spec.items / this.batchItems);
    this.service = batchServices(spec, samplers);
    this.clock = new CompletionClock(spec.items);
    for (let b = 0; b < spec.buffers!; b++) this.freeBuffers.push(b);
    this.batchOf = new Int32Array(spec.threads).fill(-1);
    this.bufferOf = new Int32Array(spec.threads).fill(-1);
    for (let w = 0; w < spec.threads; w++) this.acquire(w);
  }

  private itemsIn(batch: number): number {
    return Math.min(this.batchItems, this.spec.items - batch * this.batchItems);
  }

  private isWriter(w: number): boolean {
    return w === this.formatters;
  }

  private acquire(w: number): void {
    if (this.formatters > 0 && this.isWriter(w)) this.takeNextWrite(w);
    else this.takeBuffer(w);
  }

  /** A formatter (or the serial worker): a free buffer first, then the next batch number. */
  private takeBuffer(w: number): void {
    if (this.nextBatch >= this.batches) return;
    if (this.freeBuffers.length === 0) {
      this.emit('blocked-full', w, FORMAT, NO_ITEM);
      this.beginWait(w, Wait.Blocked, FORMAT);
      this.bufferWaiters.push(w);
      return;
    }
    const buffer = this.freeBuffers.shift();
    const batch = this.nextBatch++;
    this.batchOf[w] = batch;
    this.bufferOf[w] = buffer;
    this.emit('buffer-take', w, FORMAT, batch, buffer);
    this.startService(w, FORMAT, batch);
  }

  private takeNextWrite(w: number): void {
    const batch = this.nextWrite;
    if (batch >= this.batches) return;
    const buffer = this.ready.get(batch);
    if (buffer === undefined) {
      this.emit('blocked-empty', w, WRITE, batch);
      this.beginWait(w, Wait.Idle, WRITE);
      this.writerWaiting = true;
      return;
    }
    this.ready.delete(batch);
    this.counters[WRITE].queueOccupancy--;
    this.batchOf[w] = batch;
    this.bufferOf[w] = buffer;
    this.startService(w, WRITE, batch);
  }

  private startService(w: number, stage: number, batch: number): void {
    const n = this.itemsIn(batch);
    this.counters[stage].itemsIn += n;
    this.emit('start', w, stage, batch, n);
    this.serve(w, this.service[stage](batch * this.batchItems, n));
  }

  protected serviceDone(w: number): void {
    const batch = this.batchOf[w];
    const buffer = this.bufferOf[w];
    const n = this.itemsIn(batch);
    const formatting = this.formatters === 0 ? this.sub[w] === FORMAT : !this.isWriter(w);
    const stage = formatting ? FORMAT : WRITE;
    this.counters[stage].busyUs += this.serviceWallUs(w);
    this.counters[stage].itemsOut += n;
    this.emit('end', w, stage, batch, n);
    if (formatting) {
      this.emit('buffer-ready', w, WRITE, batch, buffer);
      if (this.formatters === 0) {
        // Serial: the same worker writes what it just formatted.
        this.sub[w] = WRITE;
        this.startService(w, WRITE, batch);
        return;
      }
      this.counters[WRITE].queueOccupancy++;
      this.ready.set(batch, buffer);
      this.batchOf[w] = this.bufferOf[w] = -1;
      const writer = this.formatters;
      if (this.writerWaiting && batch === this.nextWrite) {
        this.writerWaiting = false;
        this.endWait(writer);
        this.takeNextWrite(writer);
      }
      this.takeBuffer(w);
      return;
    }
    // Written: its items are out, its buffer goes back to the pool.
    this.clock.recordMany(this.nowUs, n);
    this.emit('buffer-free', w, WRITE, batch, buffer);
    this.nextWrite++;
    this.batchOf[w] = this.bufferOf[w] = -1;
    this.freeBuffers.push(buffer);
    if (this.bufferWaiters.length > 0) {
      const waiter = this.bufferWaiters.shift();
      this.endWait(waiter);
      this.takeBuffer(waiter);
    }
    if (this.formatters === 0) this.sub[w] = FORMAT;
    this.acquire(w);
  }

  protected timer(): void {}
}
