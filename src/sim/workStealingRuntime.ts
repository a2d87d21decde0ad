// Work-stealing runtime (TBB-like): per-worker deques, random-victim steals, a token limit.
import type { ExperimentSpec } from '../spec/experimentSpec';
import { CompletionClock } from './completionClock';
import { Fifo } from './fifo';
import type { ServiceSampler } from './serviceSampler';
import { SimCore, Wait } from './simCore';
import { NO_ITEM, NO_STAGE, type TelemetrySink } from './telemetry';

/** The task that creates the next item (runs the input stage). */
const INPUT_TASK = -1;
const STAGE_RADIX = 16;
const itemOf = (task: number) => (task === INPUT_TASK ? -1 : Math.floor(task / STAGE_RADIX));
const stageOf = (task: number) => (task === INPUT_TASK ? 0 : task % STAGE_RADIX);

/**
 * Each worker owns a deque: it pushes and pops at the bottom (LIFO) and thieves take from the top
 * (FIFO). A worker carries its item through consecutive parallel stages (depth first, as TBB does);
 * a serial stage admits one item at a time (serial-in-order: in sequence order), and an item that
 * finds it busy or out of turn is parked there until the stage frees and pushes it as a task.
 * The input task creates an item when fewer than `tokens` are in flight (else it parks until an
 * item finishes). A worker with an empty deque picks a random other worker and, after
 * `stealCostUs`, takes the top of its deque if any; with no task anywhere it sleeps (idle) until a push wakes all
 * sleepers. A steal attempt is a delay that occupies no core (a thief's spin is cheap next to
 * service). Stage counters: queueOccupancy counts tasks of that stage in deques plus items parked
 * at it; idle time belongs to no stage and is reported per worker.
 */
export class WorkStealingRuntime extends SimCore {
  private readonly deques: number[][];
  private stealable = 0;
  private readonly idle = new Fifo();
  private readonly victim: Int32Array;
  private readonly item: Int32Array;
  private readonly stage: Int32Array;
  private readonly serialBusy: boolean[];
  private readonly nextInOrder: Int32Array;
  private readonly parkedInOrder: Set<number>[];
  private readonly parkedAnyOrder: Fifo[];
  private nextItem = 0;
  private inFlight = 0;
  private inputParked = false;
  readonly steals: Int32Array;
  readonly stealAttempts: Int32Array;
  readonly clock: CompletionClock;

  constructor(
    private readonly spec: ExperimentSpec,
    private readonly samplers: ServiceSampler[],
    private readonly stealCostUs: number,
    cores: number,
    sink: TelemetrySink | undefined,
  ) {
    super(spec.seed, spec.stages.length, spec.threads, cores, sink);
    const n = spec.threads;
    const k = spec.stages.length;
    this.deques = Array.from({ length: n }, () => []);
    this.victim = new Int32Array(n);
    this.item = new Int32Array(n);
    this.stage = new Int32Array(n);
    this.steals = new Int32Array(n);
    this.stealAttempts = new Int32Array(n);
    this.serialBusy = new Array<boolean>(k).fill(false);
    this.nextInOrder = new Int32Array(k);
    this.parkedInOrder = Array.from({ length: k }, () => new Set<number>());
    this.parkedAnyOrder = Array.from({ length: k }, () => new Fifo());
    this.clock = new CompletionClock(spec.items);
    this.push(0, INPUT_TASK);
    for (let w = 0; w < n; w++) this.findWork(w);
  }

  private serial(stage: number): boolean {
    return this.spec.stages[stage].mode !== 'parallel';
  }

  private push(w: number, task: number): void {
    const deque = this.deques[w];
    deque.push(task);
    this.stealable++;
    const stage = stageOf(task);
    this.counters[stage].queueOccupancy++;
    this.emit('enqueue', w, stage, itemOf(task), deque.length);
    // Every sleeper resumes stealing, as TBB's thieves spin while any task exists: the first
    // to pick this victim wins, so the task waits about (workers − 1)/(thieves) attempts.
    for (let n = this.idle.length; n > 0; n--) {
      const sleeper = this.idle.shift();
      this.endWait(sleeper);
      this.findWork(sleeper);
    }
  }

  private findWork(w: number): void {
    const deque = this.deques[w];
    if (deque.length > 0) {
      const task = deque.pop()!;
      this.stealable--;
      this.counters[stageOf(task)].queueOccupancy--;
      this.emit('dequeue', w, stageOf(task), itemOf(task), deque.length);
      this.run(w, task);
      return;
    }
    if (this.stealable > 0 && this.workerCount > 1) {
      const pick = this.rng.below(this.workerCount - 1);
      const victim = pick >= w ? pick + 1 : pick;
      this.victim[w] = victim;
      this.stealAttempts[w]++;
      this.emit('steal-attempt', w, NO_STAGE, NO_ITEM, victim);
      this.after(w, this.stealCostUs);
      return;
    }
    this.emit('idle', w, NO_STAGE, NO_ITEM);
    this.beginWait(w, Wait.Idle, -1);
    this.idle.push(w);
  }

  protected timer(w: number): void {
    const victim = this.victim[w];
    const deque = this.deques[victim];
    if (deque.length === 0) {
      this.findWork(w);
      return;
    }
    const task = deque.shift()!;
    this.stealable--;
    this.counters[stageOf(task)].queueOccupancy--;
    this.steals[w]++;
    this.emit('steal-success', w, stageOf(task), itemOf(task), victim);
    this.run(w, task);
  }

  private run(w: number, task: number): void {
    if (task !== INPUT_TASK) {
      this.startStage(w, itemOf(task), stageOf(task));
      return;
    }
    const item = this.nextItem++;
    this.inFlight++;
    if (!this.serial(0)) this.spawnInput(w);
    this.startStage(w, item, 0);
  }

  private spawnInput(w: number): void {
    if (this.nextItem >= this.spec.items) return;
    if (this.inFlight < this.spec.tokens) this.push(w, INPUT_TASK);
    else this.inputParked = true;
  }

  private startStage(w: number, item: number, stage: number): void {
    this.item[w] = item;
    this.stage[w] = stage;
    this.counters[stage].itemsIn++;
    this.emit('start', w, stage, item);
    this.serve(w, this.samplers[stage]());
  }

  protected serviceDone(w: number): void {
    const item = this.item[w];
    const stage = this.stage[w];
    this.counters[stage].busyUs += this.serviceWallUs(w);
    this.counters[stage].itemsOut++;
    this.emit('end', w, stage, item);
    if (stage === 0 && this.serial(0)) this.spawnInput(w);
    else if (stage > 0 && this.serial(stage)) this.releaseSerial(w, stage);
    const last = this.spec.stages.length - 1;
    if (stage === last) {
      this.clock.record(this.nowUs);
      this.inFlight--;
      if (this.inputParked) {
        this.inputParked = false;
        this.spawnInput(w);
      }
      this.findWork(w);
      return;
    }
    const next = stage + 1;
    if (!this.serial(next)) {
      this.startStage(w, item, next);
      return;
    }
    const inOrder = this.spec.stages[next].mode === 'serial-in-order';
    if (!this.serialBusy[next] && (!inOrder || item === this.nextInOrder[next])) {
      this.serialBusy[next] = true;
      this.startStage(w, item, next);
      return;
    }
    if (inOrder) this.parkedInOrder[next].add(item);
    else this.parkedAnyOrder[next].push(item);
    this.counters[next].queueOccupancy++;
    this.findWork(w);
  }

  /** The serial stage is free: hand it (reserved) to the next eligible parked item, if any. */
  private releaseSerial(w: number, stage: number): void {
    let waiting = -1;
    if (this.spec.stages[stage].mode === 'serial-in-order') {
      const next = ++this.nextInOrder[stage];
      if (this.parkedInOrder[stage].delete(next)) waiting = next;
    } else if (this.parkedAnyOrder[stage].length > 0) {
      waiting = this.parkedAnyOrder[stage].shift();
    }
    if (waiting < 0) {
      this.serialBusy[stage] = false;
      return;
    }
    this.counters[stage].queueOccupancy--;
    this.push(w, waiting * STAGE_RADIX + stage);
  }
}
