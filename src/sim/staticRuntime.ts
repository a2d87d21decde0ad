// Static thread-per-stage runtime (closed: bounded queues, open: unbounded) and its collapsed form.
import type { ExperimentSpec } from '../spec/experimentSpec';
import { stageGroups } from '../spec/stageGroups';
import { CompletionClock } from './completionClock';
import { Fifo } from './fifo';
import type { ServiceSampler } from './serviceSampler';
import { SimCore, Wait } from './simCore';
import { NO_ITEM, type TelemetrySink } from './telemetry';

interface Group {
  /** Original stage indices run back to back by one worker (one index unless collapsed). */
  stages: number[];
  inOrder: boolean;
}

interface InputQueue {
  items: Fifo;
  waitingConsumers: Fifo;
  blockedProducers: Fifo;
  /** Early arrivals held by a serial-in-order consumer until their turn (outside the capacity). */
  early: Set<number>;
  nextInOrder: number;
}

/**
 * Each group has its own workers. A worker takes an item from its group's input queue (FIFO; a
 * serial-in-order consumer waits for the next sequence number), serves it, then pushes it to the
 * next queue; a full queue blocks the worker holding its item (blocking after service) until a
 * consumer frees a slot. Queue capacity counts waiting items only. Stage 0 workers create items;
 * `inFlightLimit` (simulation option) turns the pipeline into a closed token loop.
 * Telemetry: enqueue/dequeue carry the consuming stage's index (the queue is that stage's input
 * queue, as for the queueOccupancy counter); blocked-full carries the producer's stage; a worker
 * finding its input empty emits blocked-empty (idle time), never idle.
 */
export class StaticRuntime extends SimCore {
  private readonly groups: Group[];
  private readonly groupOf: Int32Array;
  private readonly queues: InputQueue[];
  private readonly item: Int32Array;
  private readonly sub: Int32Array;
  private readonly tokenWaiters = new Fifo();
  private nextItem = 0;
  private inFlight = 0;
  readonly clock: CompletionClock;

  constructor(
    private readonly spec: ExperimentSpec,
    private readonly samplers: ServiceSampler[],
    private readonly inFlightLimit: number,
    cores: number,
    sink: TelemetrySink | undefined,
  ) {
    const groups = stageGroups(spec).map((stages) => ({
      stages,
      inOrder: spec.stages[stages[0]].mode === 'serial-in-order',
      threads: stages.reduce((sum, i) => sum + spec.stages[i].threads, 0),
    }));
    const workers = groups.reduce((sum, g) => sum + g.threads, 0);
    super(spec.seed, spec.stages.length, workers, cores, sink);
    this.groups = groups;
    this.groupOf = Int32Array.from(groups.flatMap((g, i) => new Array<number>(g.threads).fill(i)));
    this.queues = this.groups.map(() => ({
      items: new Fifo(),
      waitingConsumers: new Fifo(),
      blockedProducers: new Fifo(),
      early: new Set<number>(),
      nextInOrder: 0,
    }));
    this.item = new Int32Array(workers).fill(-1);
    this.sub = new Int32Array(workers);
    this.clock = new CompletionClock(spec.items);
    for (let w = 0; w < workers; w++) this.acquire(w);
  }

  private capacity(): number {
    return this.spec.queue.capacity ?? Infinity;
  }

  private acquire(w: number): void {
    const g = this.groupOf[w];
    const stage = this.groups[g].stages[0];
    if (g === 0) {
      if (this.nextItem >= this.spec.items) return;
      if (this.inFlight >= this.inFlightLimit) {
        this.emit('blocked-empty', w, stage, NO_ITEM);
        this.beginWait(w, Wait.Idle, stage);
        this.tokenWaiters.push(w);
        return;
      }
      this.inFlight++;
      this.start(w, this.nextItem++);
      return;
    }
    const q = this.queues[g];
    if (this.groups[g].inOrder) {
      while (!q.early.has(q.nextInOrder) && q.items.length > 0) q.early.add(this.dequeue(w, g));
      if (q.early.delete(q.nextInOrder)) {
        this.start(w, q.nextInOrder++);
        return;
      }
    } else if (q.items.length > 0) {
      this.start(w, this.dequeue(w, g));
      return;
    }
    this.emit('blocked-empty', w, stage, NO_ITEM);
    this.beginWait(w, Wait.Idle, stage);
    q.waitingConsumers.push(w);
  }

  private dequeue(w: number, g: number): number {
    const q = this.queues[g];
    const stage = this.groups[g].stages[0];
    const item = q.items.shift();
    this.counters[stage].queueOccupancy--;
    this.emit('dequeue', w, stage, item, q.items.length);
    if (q.blockedProducers.length > 0) {
      const producer = q.blockedProducers.shift();
      this.endWait(producer);
      this.enqueue(producer, g, this.item[producer]);
      this.acquire(producer);
    }
    return item;
  }

  private enqueue(w: number, g: number, item: number): void {
    const q = this.queues[g];
    const stage = this.groups[g].stages[0];
    q.items.push(item);
    this.counters[stage].queueOccupancy++;
    this.emit('enqueue', w, stage, item, q.items.length);
    if (q.waitingConsumers.length > 0) {
      const consumer = q.waitingConsumers.shift();
      this.endWait(consumer);
      this.acquire(consumer);
    }
  }

  private start(w: number, item: number): void {
    this.item[w] = item;
    this.sub[w] = 0;
    this.startStage(w);
  }

  private startStage(w: number): void {
    const stage = this.groups[this.groupOf[w]].stages[this.sub[w]];
    this.counters[stage].itemsIn++;
    this.emit('start', w, stage, this.item[w]);
    this.serve(w, this.samplers[stage]());
  }

  protected serviceDone(w: number): void {
    const g = this.groupOf[w];
    const stages = this.groups[g].stages;
    const stage = stages[this.sub[w]];
    const item = this.item[w];
    this.counters[stage].busyUs += this.serviceWallUs(w);
    this.counters[stage].itemsOut++;
    this.emit('end', w, stage, item);
    if (++this.sub[w] < stages.length) {
      this.startStage(w);
      return;
    }
    if (g === this.groups.length - 1) {
      this.clock.record(this.nowUs);
      this.inFlight--;
      if (this.tokenWaiters.length > 0) {
        const waiter = this.tokenWaiters.shift();
        this.endWait(waiter);
        this.acquire(waiter);
      }
      this.acquire(w);
      return;
    }
    const next = this.queues[g + 1];
    if (next.items.length < this.capacity()) {
      this.enqueue(w, g + 1, item);
      this.acquire(w);
      return;
    }
    this.emit('blocked-full', w, stage, item);
    this.beginWait(w, Wait.Blocked, stage);
    next.blockedProducers.push(w);
  }

  protected timer(): void {}
}
