// Static thread-per-stage runtime (closed: bounded queues, open: unbounded) and its collapsed form.
import { itemsOut, type ExperimentSpec } from '../spec/experimentSpec';
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
  /** A single stage that some items bypass: those are pushed past the whole group. */
  skippable: boolean;
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
 * Dedup's shapes, as the C++ runtime runs them: a stage that emits e items per item hands on
 * items numbered item·e + k, one after another (each through the rest of the group, then pushed,
 * blocking if need be), before the worker takes its next item; an item that bypasses a stage
 * alone in its group is pushed past it, inside a fused group the worker skips the stage. Which
 * items bypass is a hash of (seed, stage, item), so a bypass decision never depends on timing.
 */
export class StaticRuntime extends SimCore {
  private readonly groups: Group[];
  private readonly groupOf: Int32Array;
  private readonly queues: InputQueue[];
  private readonly item: Int32Array;
  private readonly sub: Int32Array;
  /** Per worker: emitted items still to hand on, as [item, sub] pairs, the next one last. */
  private readonly pending: Array<Array<[number, number]>>;
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
      skippable: stages.length === 1 && (spec.stages[stages[0]].bypass ?? 0) > 0,
      threads: stages.reduce((sum, i) => sum + spec.stages[i].threads, 0),
    }));
    if (inFlightLimit !== Infinity && spec.stages.some((st) => (st.emits ?? 1) !== 1))
      throw new RangeError(
        'invalid inFlightLimit: a token loop needs stages that emit one item each (no emits)',
      );
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
    this.pending = Array.from({ length: workers }, () => []);
    this.clock = new CompletionClock(itemsOut(spec));
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
      this.next(producer);
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
    this.continueAt(w, item, 0);
  }

  /** Serves `item` from the group's `sub`-th stage on, skipping the stages it bypasses; past the
   * group's last stage, hands it on. */
  private continueAt(w: number, item: number, sub: number): void {
    const stages = this.groups[this.groupOf[w]].stages;
    while (sub < stages.length && this.bypassed(stages[sub], item)) sub++;
    this.item[w] = item;
    this.sub[w] = sub;
    if (sub < stages.length) this.startStage(w);
    else this.handOn(w);
  }

  private startStage(w: number): void {
    const stage = this.groups[this.groupOf[w]].stages[this.sub[w]];
    this.counters[stage].itemsIn++;
    this.emit('start', w, stage, this.item[w]);
    this.serve(w, this.samplers[stage]());
  }

  protected serviceDone(w: number): void {
    const stage = this.groups[this.groupOf[w]].stages[this.sub[w]];
    const item = this.item[w];
    const emits = this.spec.stages[stage].emits ?? 1;
    this.counters[stage].busyUs += this.serviceWallUs(w);
    this.counters[stage].itemsOut += emits;
    this.emit('end', w, stage, item);
    if (emits === 1) {
      this.continueAt(w, item, this.sub[w] + 1);
      return;
    }
    const next = this.sub[w] + 1;
    for (let k = emits - 1; k > 0; k--) this.pending[w].push([item * emits + k, next]);
    this.continueAt(w, item * emits, next);
  }

  /** The item has left its group: deliver it, or push it to the next group it does not bypass
   * (blocking while that queue is full). */
  private handOn(w: number): void {
    const g = this.groupOf[w];
    const item = this.item[w];
    let h = g + 1;
    while (
      h < this.groups.length &&
      this.groups[h].skippable &&
      this.bypassed(this.groups[h].stages[0], item)
    )
      h++;
    if (h === this.groups.length) {
      this.clock.record(this.nowUs);
      this.inFlight--;
      if (this.tokenWaiters.length > 0) {
        const waiter = this.tokenWaiters.shift();
        this.endWait(waiter);
        this.acquire(waiter);
      }
      this.next(w);
      return;
    }
    const stages = this.groups[g].stages;
    const stage = stages[stages.length - 1];
    if (this.queues[h].items.length < this.capacity()) {
      this.enqueue(w, h, item);
      this.next(w);
      return;
    }
    this.emit('blocked-full', w, stage, item);
    this.beginWait(w, Wait.Blocked, stage);
    this.queues[h].blockedProducers.push(w);
  }

  /** The worker's next emitted item, or else a new item from its input. */
  private next(w: number): void {
    const pending = this.pending[w].pop();
    if (pending) this.continueAt(w, pending[0], pending[1]);
    else this.acquire(w);
  }

  private bypassed(stage: number, item: number): boolean {
    const fraction = this.spec.stages[stage].bypass ?? 0;
    return fraction > 0 && bypassDraw(this.spec.seed, stage, item) < fraction;
  }

  protected timer(): void {}
}

/** A uniform [0, 1) draw per (seed, stage, item): murmur3's 32-bit finalizer over the three. */
export function bypassDraw(seed: number, stage: number, item: number): number {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(stage + 1, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) ^ item;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  return ((h ^ (h >>> 13)) >>> 0) / 4294967296;
}
