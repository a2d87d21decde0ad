// The twin of the two-stage input runtime (Dempsey Part 1, seed 000 §4.2; C++:
// two_stage_io/input_runtime.hpp): one scanner cuts the text into spans of batchItems records and
// queues them (bounded: 2N rounded up to a power of two, as the C++ queue), N readers parse spans
// in any order; dual-thread is N = 1; serial is one worker that scans a span, then parses it.
// Same telemetry as the C++ runtime (contracts/telemetry.md, batch runtimes).
import type { ExperimentSpec } from '../spec/experimentSpec';
import { BatchTwin } from './batchTwin';
import { Fifo } from './fifo';
import type { ServiceSampler } from './serviceSampler';
import { Wait } from './simCore';
import { NO_ITEM, type TelemetrySink } from './telemetry';

const SCAN = 0;
const READ = 1;

/** The C++ span queue's capacity for n readers (round_up_pow2(2n), at least 2). */
export function spanQueueCapacity(readers: number): number {
  let p = 2;
  while (p < 2 * readers) p *= 2;
  return p;
}

/**
 * The scanner serves span after span (the sum of its records' scan draws) and pushes each to the
 * queue, or waits holding it while the queue is full (blocked-full); a reader takes the oldest
 * span (or waits: blocked-empty), parses it and completes its records. Worker 0 scans, workers
 * 1..N read (serial: worker 0 both). Stage counters count records; stage 1's queueOccupancy is
 * spans cut and not yet taken.
 */
export class TwoStageInputTwin extends BatchTwin {
  private readonly readers: number;
  private readonly capacity: number;
  private readonly queue = new Fifo();
  private readonly waitingReaders = new Fifo();
  private nextSpan = 0;
  private scannerBlocked = false;

  constructor(
    spec: ExperimentSpec,
    samplers: ServiceSampler[],
    cores: number,
    sink: TelemetrySink | undefined,
  ) {
    super(spec, samplers, cores, sink);
    this.readers = spec.variant === 'serial' ? 0 : spec.stages[READ].threads;
    this.capacity = spanQueueCapacity(this.readers);
    this.startAll();
  }

  /** The scanner holds its cut span (batchOf) while the queue is full; -1 when it holds none. */
  private get scannerSpan(): number {
    return this.batchOf[0];
  }

  protected acquire(w: number): void {
    if (w === 0) this.scanNext();
    else this.readNext(w);
  }

  private scanNext(): void {
    this.batchOf[0] = -1;
    if (this.nextSpan >= this.batches) return;
    this.sub[0] = SCAN;
    this.startService(0, SCAN, this.nextSpan++, 0);
  }

  private readNext(w: number): void {
    if (this.queue.length === 0) {
      if (this.nextSpan >= this.batches && !this.scannerBlocked && this.scannerSpan < 0) return;
      this.emit('blocked-empty', w, READ, NO_ITEM);
      this.beginWait(w, Wait.Idle, READ);
      this.waitingReaders.push(w);
      return;
    }
    const span = this.queue.shift();
    this.counters[READ].queueOccupancy--;
    if (this.scannerBlocked) {
      // The scanner was holding a cut span for a full queue: it goes in now.
      this.scannerBlocked = false;
      this.endWait(0);
      const held = this.scannerSpan;
      this.batchOf[0] = -1;
      this.push(held);
      this.scanNext();
    }
    this.startService(w, READ, span);
  }

  private push(span: number): void {
    this.queue.push(span);
    this.counters[READ].queueOccupancy++;
    if (this.waitingReaders.length > 0) {
      const reader = this.waitingReaders.shift();
      this.endWait(reader);
      this.readNext(reader);
    }
  }

  protected serviceDone(w: number): void {
    const stage = w === 0 ? this.sub[0] : READ;
    const span = this.endService(w, stage);
    const n = this.itemsIn(span);
    if (stage === READ) {
      this.clock.recordMany(this.nowUs, n);
      this.batchOf[w] = -1;
      if (w === 0) this.scanNext();
      else this.readNext(w);
      return;
    }
    if (this.readers === 0) {
      // Serial: the scanner parses the span it just cut.
      this.sub[0] = READ;
      this.startService(0, READ, span);
      return;
    }
    if (this.queue.length >= this.capacity) {
      this.emit('blocked-full', 0, SCAN, span);
      this.beginWait(0, Wait.Blocked, SCAN);
      this.scannerBlocked = true;
      return;
    }
    this.batchOf[0] = -1;
    this.push(span);
    this.scanNext();
    // The last span is out: readers still waiting have nothing more to wait for.
    if (this.nextSpan >= this.batches && this.scannerSpan < 0)
      while (this.waitingReaders.length > 0) this.endWait(this.waitingReaders.shift());
  }
}
