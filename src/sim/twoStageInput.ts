// The twin of the two-stage input runtime (Dempsey Part 1, seed 000 §4.2; C++:
// two_stage_io/input_runtime.hpp): one scanner cuts the text into spans of batchItems records and
// queues them (bounded: 2N rounded up to a power of two, as the C++ queue), N readers parse spans
// in any order; dual-thread is N = 1; serial is one worker that scans a span, then parses it.
// Same telemetry as the C++ runtime (contracts/telemetry.md, batch runtimes).
import type { ExperimentSpec } from '../spec/experimentSpec';
import { batchServices, type BatchService } from './batchService';
import { CompletionClock } from './completionClock';
import { Fifo } from './fifo';
import type { ServiceSampler } from './serviceSampler';
import { SimCore, Wait } from './simCore';
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
export class TwoStageInputTwin extends SimCore {
  readonly clock: CompletionClock;
  private readonly readers: number;
  private readonly batchItems: number;
  private readonly spans: number;
  private readonly capacity: number;
  private readonly service: BatchService[];
  private readonly queue = new Fifo();
  private readonly waitingReaders = new Fifo();
  /** Per worker: the span in hand (-1: none). */
  private readonly spanOf: Int32Array;
  /** Serial variant: the stage worker 0 is serving. */
  private readonly sub = new Int32Array(1);
  private nextSpan = 0;
  private scannerBlocked = false;

  constructor(
    private readonly spec: ExperimentSpec,
    samplers: ServiceSampler[],
    cores: number,
    sink: TelemetrySink | undefined,
  ) {
    // Dempsey ran more threads than cores (formatters + the writer) and let the OS move them:
    // the cores are one shared pool here, not the pinned thread-packing model.
    super(spec.seed, spec.stages.length, spec.threads, cores, sink, 'migrating');
    this.readers = spec.variant === 'serial' ? 0 : spec.stages[READ].threads;
    this.batchItems = spec.batchItems!;
    this.spans = Math.ceil(spec.items / this.batchItems);
    this.capacity = spanQueueCapacity(this.readers);
    this.service = batchServices(spec, samplers);
    this.clock = new CompletionClock(spec.items);
    this.spanOf = new Int32Array(spec.threads).fill(-1);
    for (let w = 0; w < spec.threads; w++) this.acquire(w);
  }

  private recordsIn(span: number): number {
    return Math.min(this.batchItems, this.spec.items - span * this.batchItems);
  }

  private acquire(w: number): void {
    if (w === 0) this.scanNext();
    else this.readNext(w);
  }

  private scanNext(): void {
    if (this.nextSpan >= this.spans) return;
    const span = this.nextSpan++;
    this.spanOf[0] = span;
    this.sub[0] = SCAN;
    this.startService(0, SCAN, span, 0);
  }

  private readNext(w: number): void {
    if (this.queue.length === 0) {
      if (this.nextSpan >= this.spans && !this.scannerBlocked && this.spanOf[0] < 0) return;
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
      this.push(this.spanOf[0]);
      this.spanOf[0] = -1;
      this.scanNext();
    }
    this.spanOf[w] = span;
    this.startService(w, READ, span, this.recordsIn(span));
  }

  private startService(w: number, stage: number, span: number, arg: number): void {
    const n = this.recordsIn(span);
    this.counters[stage].itemsIn += n;
    this.emit('start', w, stage, span, arg);
    this.serve(w, this.service[stage](span * this.batchItems, n));
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
    const span = this.spanOf[w];
    const n = this.recordsIn(span);
    const stage = w === 0 ? this.sub[0] : READ;
    this.counters[stage].busyUs += this.serviceWallUs(w);
    this.counters[stage].itemsOut += n;
    this.emit('end', w, stage, span, n);
    if (stage === READ) {
      this.clock.recordMany(this.nowUs, n);
      this.spanOf[w] = -1;
      if (w === 0) this.scanNext();
      else this.readNext(w);
      return;
    }
    if (this.readers === 0) {
      // Serial: the scanner parses the span it just cut.
      this.sub[0] = READ;
      this.startService(0, READ, span, n);
      return;
    }
    if (this.queue.length >= this.capacity) {
      this.emit('blocked-full', 0, SCAN, span);
      this.beginWait(0, Wait.Blocked, SCAN);
      this.scannerBlocked = true;
      return;
    }
    this.spanOf[0] = -1;
    this.push(span);
    this.scanNext();
    // The last span is out: readers still waiting have nothing more to wait for.
    if (this.nextSpan >= this.spans && this.spanOf[0] < 0)
      while (this.waitingReaders.length > 0) this.endWait(this.waitingReaders.shift());
  }

  protected timer(): void {}
}
