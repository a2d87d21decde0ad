// The twin of the two-stage output runtime (Dempsey, seed 002; C++: two_stage_io/output_runtime.hpp):
// N formatters fill buffers from a fixed pool, one writer writes the batches strictly in order
// and returns each buffer; dual-thread is N = 1; serial is one worker that formats a batch, then
// writes it. Same telemetry as the C++ runtime (contracts/telemetry.md, batch runtimes).
import type { ExperimentSpec } from '../spec/experimentSpec';
import { BatchTwin } from './batchTwin';
import { Fifo } from './fifo';
import type { ServiceSampler } from './serviceSampler';
import { Wait } from './simCore';
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
export class TwoStageOutputTwin extends BatchTwin {
  private readonly formatters: number;
  private readonly freeBuffers = new Fifo();
  private readonly bufferWaiters = new Fifo();
  /** batch → buffer, for batches formatted and not yet written. */
  private readonly ready = new Map<number, number>();
  /** Per worker: the buffer in hand (-1: none). */
  private readonly bufferOf: Int32Array;
  private nextBatch = 0;
  private nextWrite = 0;
  private writerWaiting = false;

  constructor(
    spec: ExperimentSpec,
    samplers: ServiceSampler[],
    cores: number,
    sink: TelemetrySink | undefined,
  ) {
    super(spec, samplers, cores, sink);
    this.formatters = spec.variant === 'serial' ? 0 : spec.stages[FORMAT].threads;
    for (let b = 0; b < spec.buffers!; b++) this.freeBuffers.push(b);
    this.bufferOf = new Int32Array(spec.threads).fill(-1);
    this.startAll();
  }

  private isWriter(w: number): boolean {
    return w === this.formatters;
  }

  protected acquire(w: number): void {
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
    this.bufferOf[w] = buffer;
    this.startService(w, WRITE, batch);
  }

  protected serviceDone(w: number): void {
    const buffer = this.bufferOf[w];
    const formatting = this.formatters === 0 ? this.sub[w] === FORMAT : !this.isWriter(w);
    const batch = this.endService(w, formatting ? FORMAT : WRITE);
    const n = this.itemsIn(batch);
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
}
