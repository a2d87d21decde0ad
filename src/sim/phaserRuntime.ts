// The phaser runtime's twin (wasm/include/pipelab/pipeline/phaser_graph): the spec's stream graph
// as tasks on `threads` simulated pool threads, scheduled as the C++ scheduler does
// (phaser/scheduler.hpp) and writing the same telemetry and board.
import type { ExperimentSpec, StageOp } from '../spec/experimentSpec';
import { streamGraph } from '../spec/phaserGraph';
import { DEFAULTS } from '../spec/limits';
import { BATCHED_FLAG, BoardWriter, CYCLIC_FLAG, type TaskState } from '../telemetry';
import { CompletionClock } from './completionClock';
import { Fifo } from './fifo';
import {
  ELEMENT_US,
  MAX_TASKS,
  PHASE_SYNC_US,
  QUANTUM_US,
  TASK_SWITCH_US,
} from '../model/phaserCosts';
import { SimStream, type SignalReg, type WaitReg } from './phaserStreams';
import type { ServiceSampler } from './serviceSampler';
import { SimCore, Wait } from './simCore';
import type { TelemetrySink } from './telemetry';

type Step = 'take' | 'serving' | 'push' | 'prime' | 'finish' | 'done';

interface Input {
  stream: SimStream;
  reg: WaitReg;
  label: string;
}
interface Output {
  stream: SimStream;
  reg: SignalReg;
  label: string;
}

interface SimTask {
  id: number;
  stage: number;
  copy: number;
  op: StageOp;
  label: string;
  sink: boolean;
  inputs: Input[];
  outputs: Output[];
  /** A sieve task's registration on the primes stream (handed to its tail when it finds its prime). */
  primes: Output | null;
  step: Step;
  blocked: boolean;
  started: boolean;
  /** Elements served. */
  served: number;
  got: number;
  sum: number;
  input: number;
  /** avg: the input before the current one, and how many it has read. */
  previous: number;
  read: number;
  value: number;
  prime: number;
  out: number;
  publishing: boolean;
  announced: boolean;
  runSinceUs: number;
  /** What it parked for, in words (the stall report). */
  waitingFor: string;
}

/** Twin-only source values in -1000..1000 (a 32-bit hash; the C++ runtime draws its own). */
function randomValue(seed: number, stage: number, k: number): number {
  let x = (Math.imul(stage + 1, 0x9e3779b9) ^ Math.imul(k, 0x85ebca6b) ^ seed) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d);
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
  return (((x ^ (x >>> 16)) >>> 0) % 2001) - 1000;
}

/**
 * Scheduling, as in C++: a worker takes the oldest ready task (paying TASK_SWITCH_US) and runs it
 * element by element until it cannot go on — its next input phase is not complete (it parks:
 * blocked-empty) or its next phase would pass the bound (blocked-full) — or until it has run
 * QUANTUM_US while another task is ready (it goes to the back of the queue). Any change on a
 * stream makes the tasks parked on it ready; idle workers pick them up at once. The C++ tasks spin
 * briefly before parking when nothing else is ready; the twin parks at once (a switch instead of
 * a spin: the same thread time, the same order). Per element a task pays ELEMENT_US per element it
 * takes or puts and PHASE_SYNC_US per phase it waits for or publishes, on top of its service time.
 * Streams on the ring are not batched (what C++'s cycle detection finds for every graph the spec
 * admits: a graph with a source is acyclic, and a ring is one cycle) unless batching is "always".
 * With no task ready or running and some not done, the run has stalled (stallMessage).
 */
export class PhaserRuntime extends SimCore {
  readonly clock: CompletionClock;
  /** The sink's values in order (twin-only values; the tests compare them with a sequential run). */
  readonly sinkValues: number[] = [];
  stallMessage: string | null = null;
  private readonly tasks: SimTask[] = [];
  private readonly streams: SimStream[] = [];
  private readonly ready = new Fifo();
  private readonly running: Int32Array;
  private readonly idle: boolean[];
  private readonly syncUs: Float64Array;
  private readonly sieveGraph: boolean;
  private readonly parentStage: number[];
  private live = 0;

  constructor(
    private readonly spec: ExperimentSpec,
    private readonly samplers: ServiceSampler[],
    cores: number,
    sink: TelemetrySink | undefined,
    private readonly board: BoardWriter | undefined,
  ) {
    super(spec.seed, spec.stages.length, spec.threads, cores, sink);
    const streams = spec.streams ?? [];
    const g = streamGraph(spec.stages, streams);
    // Cycle detection (batching "adaptive") finds the ring; "always" keeps it batched.
    const ring = g.token !== null && spec.batching !== 'always';
    const batch = ring ? 1 : (spec.batch ?? 1);
    this.clock = new CompletionClock(spec.items);
    this.sieveGraph = g.sieve !== null;
    this.running = new Int32Array(spec.threads).fill(-1);
    this.idle = new Array<boolean>(spec.threads).fill(false);
    this.syncUs = new Float64Array(spec.threads);
    this.parentStage = spec.stages.map((s) =>
      s.parent === undefined ? -1 : spec.stages.findIndex((p) => p.name === s.parent),
    );
    streams.forEach((st, k) =>
      this.streams.push(new SimStream(k, st.reduce, spec.bound ?? DEFAULTS.bound, batch)),
    );
    spec.stages.forEach((st, s) => {
      for (let c = 0; c < st.threads; c++)
        this.newTask(s, c, null, g.inputs[s][0] ?? null, g.outputs[s][0] ?? null, g.sink === s);
    });
    streams.forEach((st, k) => {
      const first = (names: string[]) =>
        this.tasks.findIndex((t) => spec.stages[t.stage].name === names[0]);
      const flags = ring ? CYCLIC_FLAG : batch > 1 ? BATCHED_FLAG : 0;
      this.board?.addStream(k, first(st.from), first(st.to), flags, batch);
    });
    this.board?.setCyclicStreams(ring ? streams.length : 0);
    for (const t of this.tasks) {
      if (this.parentStage[t.stage] < 0) {
        this.register(t, null);
        this.makeReady(t);
      }
    }
    for (let w = 0; w < spec.threads; w++) this.dispatch(w);
  }

  get taskCount(): number {
    return this.tasks.length;
  }
  /** The sieve's primes, in the order its tasks found them. */
  primes(): number[] {
    return this.tasks.filter((t) => t.prime !== 0).map((t) => t.prime);
  }

  private newTask(
    stage: number,
    copy: number,
    parent: number | null,
    input: number | null,
    output: number | null,
    sink: boolean,
  ): SimTask {
    const st = this.spec.stages[stage];
    const id = this.tasks.length;
    this.board?.addTask(stage, parent, st.threads > 1 ? copy : 0, input, output);
    const task: SimTask = {
      id,
      stage,
      copy,
      op: st.op!,
      label: st.threads > 1 ? `${st.name}#${copy}` : st.name,
      sink,
      inputs: [],
      outputs: [],
      primes: null,
      step: 'take',
      blocked: false,
      started: false,
      served: 0,
      got: 0,
      sum: 0,
      input: 0,
      previous: 0,
      read: 0,
      value: 0,
      prime: 0,
      out: 0,
      publishing: false,
      announced: false,
      runSinceUs: 0,
      waitingFor: '',
    };
    this.tasks.push(task);
    return task;
  }

  /** Registers `t` on its stage's spec streams, at `parent`'s phase there (or 0 for the root). */
  private register(t: SimTask, parent: SimTask | null): void {
    (this.spec.streams ?? []).forEach((st, k) => {
      const name = this.spec.stages[t.stage].name;
      const stream = this.streams[k];
      const label = `streams[${k}]`;
      if (st.to.includes(name)) {
        const from = parent?.inputs.find((i) => i.stream === stream)?.reg;
        const reg = stream.waiter(t.id);
        if (from) Object.assign(reg, { consumed: from.consumed, phases: from.phases });
        t.inputs.push({ stream, reg, label });
      }
      if (st.from.includes(name)) {
        const from = parent?.outputs.find((o) => o.stream === stream)?.reg;
        const out = { stream, reg: stream.signaller(t.id, from), label };
        if (t.op === 'sieve') t.primes = out;
        else t.outputs.push(out);
      }
    });
  }

  private makeReady(t: SimTask): void {
    t.blocked = false;
    this.live += t.started ? 0 : 1;
    this.ready.push(t.id);
  }

  // Workers -------------------------------------------------------------------------------------

  /** Worker w takes the next ready task, or idles (and a run with nothing left to wake stalls). */
  private dispatch(w: number): void {
    if (this.running[w] >= 0 || this.stallMessage !== null) return;
    if (this.ready.length === 0) {
      if (!this.idle[w]) {
        this.idle[w] = true;
        this.emit('idle', w, 0xff, -1);
        this.beginWait(w, Wait.Idle, -1);
      }
      if (this.live > 0 && this.idle.every((i) => i)) this.stall();
      return;
    }
    if (this.idle[w]) {
      this.idle[w] = false;
      this.endWait(w);
    }
    const t = this.tasks[this.ready.shift()];
    this.running[w] = t.id;
    t.runSinceUs = this.nowUs;
    this.syncUs[w] += TASK_SWITCH_US;
    this.setState(t, 'running', w);
    if (!t.started) {
      t.started = true;
      this.spawnChildren(t);
      if (t.op === 'token') {
        t.value = 0; // the ring's token, hop count 0
        t.step = 'push';
      }
    }
    this.runTask(w, t);
  }

  /** Runs `t` on `w` until it must spend time (a service), parks, yields or ends. */
  private runTask(w: number, t: SimTask): void {
    for (;;) {
      switch (t.step) {
        case 'take': {
          if (this.nowUs - t.runSinceUs >= QUANTUM_US && this.ready.length > 0) {
            this.setState(t, 'yielded', w);
            this.ready.push(t.id);
            return this.release(w);
          }
          const next = this.take(w, t);
          if (next === 'parked') return;
          if (next === 'ended') {
            t.step = 'finish';
            break;
          }
          return this.startService(w, t);
        }
        case 'push':
          if (!this.push(w, t)) return;
          t.step = 'take';
          break;
        case 'prime':
          if (!this.becomeFilter(w, t)) return;
          t.step = 'take';
          break;
        case 'finish':
          if (!this.finish(w, t)) return;
          t.step = 'done';
          this.live--;
          this.setState(t, 'done', w);
          return this.release(w);
        default:
          return;
      }
    }
  }

  /** The worker is free again: it takes the next task after this instant's other events. */
  private release(w: number): void {
    this.running[w] = -1;
    this.after(w, 0);
  }

  protected timer(w: number): void {
    this.dispatch(w);
  }

  // One element -----------------------------------------------------------------------------------

  private take(w: number, t: SimTask): 'serve' | 'parked' | 'ended' {
    if (t.inputs.length === 0) {
      if (t.served >= this.spec.items) return 'ended';
      t.input = t.op === 'count' ? t.served + 2 : randomValue(this.spec.seed, t.stage, t.served);
      return 'serve';
    }
    while (t.got < t.inputs.length) {
      const input = t.inputs[t.got];
      const state = input.stream.state(input.reg);
      if (state === 'ended') return 'ended';
      if (state === 'pending') {
        this.park(w, t, input, 'blocked-empty');
        return 'parked';
      }
      const { value, newPhase } = input.stream.take(input.reg);
      this.syncUs[w] += ELEMENT_US;
      if (newPhase) {
        this.syncUs[w] += PHASE_SYNC_US;
        const seen = Math.max(0, input.stream.completePhases() - input.reg.phases);
        this.emit('dequeue', w, t.stage, input.reg.phases - 1, seen);
        this.board?.setStream(input.stream.id, 'waited', input.reg.phases);
        this.changed(input.stream);
      }
      t.sum += value;
      t.got++;
    }
    t.got = 0;
    t.previous = t.input;
    t.input = t.sum;
    t.read++;
    t.sum = 0;
    return 'serve';
  }

  /** Which item an element is: its index, the ring's hop, or the sieve's integer − 2. */
  private itemOf(t: SimTask): number {
    if (t.op === 'hop' || t.op === 'token') return t.input;
    if (t.op === 'sieve' || (t.sink && this.sieveGraph)) return t.input - 2;
    return t.served;
  }

  private startService(w: number, t: SimTask): void {
    t.step = 'serving';
    const item = this.itemOf(t);
    this.counters[t.stage].itemsIn++;
    this.emit('start', w, t.stage, item, t.id);
    const work = this.samplers[t.stage]() + this.syncUs[w];
    this.syncUs[w] = 0;
    this.serve(w, work);
  }

  protected serviceDone(w: number): void {
    const t = this.tasks[this.running[w]];
    const item = this.itemOf(t);
    this.counters[t.stage].busyUs += this.serviceWallUs(w);
    this.counters[t.stage].itemsOut++;
    this.emit('end', w, t.stage, item, t.id);
    t.served++;
    this.board?.setTask(t.id, 'phase', t.served);
    t.step = 'push';
    switch (t.op) {
      case 'avg':
        t.value = t.read >= 2 ? Math.trunc((t.input + t.previous) / 2) : t.input;
        break;
      case 'abs':
        t.value = Math.abs(t.input);
        break;
      case 'split':
        t.value = t.input * (t.copy + 1);
        break;
      case 'hop':
      case 'token':
        this.deliver(item);
        t.value = t.input + 1;
        if (t.value >= this.spec.items) t.step = 'finish'; // the last hop
        return this.runTask(w, t);
      case 'sieve':
        if (t.prime === 0) {
          t.prime = t.input;
          t.label = `${this.spec.stages[t.stage].name}(${t.prime})`;
          this.board?.setTask(t.id, 'label', t.prime);
          t.step = 'prime';
        } else if (t.input % t.prime === 0) {
          this.deliver(item); // a multiple leaves here
          t.step = 'take';
        } else t.value = t.input;
        return this.runTask(w, t);
      default:
        t.value = t.input;
    }
    if (t.sink) {
      this.deliver(item);
      this.sinkValues.push(t.value);
      t.step = 'take';
    }
    this.runTask(w, t);
  }

  private deliver(_item: number): void {
    this.clock.record(this.nowUs);
  }

  /** Puts t.value on every output; false when it parked at the bound. */
  private push(w: number, t: SimTask): boolean {
    while (t.out < t.outputs.length) {
      const o = t.outputs[t.out];
      if (!t.publishing) {
        o.reg.pending.push(t.value);
        this.syncUs[w] += ELEMENT_US;
        t.publishing = o.reg.pending.length >= o.stream.batch;
        if (!t.publishing) {
          t.out++;
          continue;
        }
      }
      if (!this.publish(w, t, o)) return false;
      t.publishing = false;
      t.out++;
    }
    t.out = 0;
    return true;
  }

  /** Publishes o's pending elements as one phase; false when it parked at the bound. */
  private publish(w: number, t: SimTask, o: Output): boolean {
    if (o.reg.pending.length === 0) return true;
    if (!o.stream.canPublish(o.reg)) {
      this.park(w, t, o, 'blocked-full');
      return false;
    }
    const waited = o.stream.minWaited();
    o.stream.publish(o.reg);
    this.syncUs[w] += PHASE_SYNC_US;
    this.emit(
      'enqueue',
      w,
      t.stage,
      o.reg.phases - 1,
      waited === Infinity ? 0 : o.reg.phases - waited,
    );
    this.board?.setStream(o.stream.id, 'signalled', o.reg.phases);
    this.changed(o.stream);
    return true;
  }

  /** The sieve tail found its prime: announce it, hand the primes stream to a new tail. */
  private becomeFilter(w: number, t: SimTask): boolean {
    const primes = t.primes!;
    if (!t.announced) {
      if (primes.reg.pending.length === 0) primes.reg.pending.push(t.prime);
      if (!this.publish(w, t, primes)) return false;
      t.announced = true;
    }
    if (this.tasks.length >= MAX_TASKS) {
      this.fail(`stopped: the sieve needs more than ${MAX_TASKS} tasks`);
      return false;
    }
    const link = new SimStream(
      this.streams.length,
      'any',
      this.spec.bound ?? DEFAULTS.bound,
      primes.stream.batch,
    );
    this.streams.push(link);
    const label = `the stream after ${t.label}`;
    t.outputs.push({ stream: link, reg: link.signaller(t.id), label });
    const tail = this.newTask(t.stage, t.copy + 1, t.id, link.id, primes.stream.id, false);
    tail.inputs.push({ stream: link, reg: link.waiter(tail.id), label });
    tail.primes = {
      stream: primes.stream,
      reg: primes.stream.signaller(tail.id, primes.reg),
      label: primes.label,
    };
    this.board?.addStream(null, t.id, tail.id, link.batch > 1 ? BATCHED_FLAG : 0, link.batch);
    primes.reg.live = false; // the new tail signals the primes from here on
    t.primes = null;
    this.makeReady(tail);
    this.changed(primes.stream);
    return true;
  }

  /** Flushes and drops every registration; false when a flush parked at the bound. */
  private finish(w: number, t: SimTask): boolean {
    for (const o of [...t.outputs, ...(t.primes ? [t.primes] : [])]) {
      if (!o.reg.live) continue;
      if (!this.publish(w, t, o)) return false;
      o.reg.live = false;
      this.changed(o.stream);
    }
    for (const i of t.inputs) {
      if (!i.reg.live) continue;
      i.reg.live = false;
      this.changed(i.stream);
    }
    return true;
  }

  // Parking and waking ----------------------------------------------------------------------------

  private park(
    w: number,
    t: SimTask,
    port: Input | Output,
    kind: 'blocked-empty' | 'blocked-full',
  ): void {
    const stream = port.stream;
    const phase = port.reg.phases;
    t.waitingFor =
      kind === 'blocked-empty'
        ? `${t.label} waits for phase ${phase} of ${port.label}`
        : `${t.label} waits for room in ${port.label}`;
    t.blocked = true;
    stream.parked.push(t.id);
    this.emit(kind, w, t.stage, phase, t.id);
    this.setState(t, kind === 'blocked-empty' ? 'waiting-input' : 'waiting-bound', w);
    this.release(w);
  }

  /** A stream changed: the tasks parked on it are ready again, and idle workers take them. */
  private changed(stream: SimStream): void {
    if (stream.parked.length === 0) return;
    for (const id of stream.parked) {
      const t = this.tasks[id];
      if (t.blocked) this.makeReady(t);
    }
    stream.parked = [];
    for (let w = 0; w < this.idle.length && this.ready.length > 0; w++) {
      if (this.idle[w] && this.running[w] < 0) this.after(w, 0);
    }
  }

  /** A parent stage's first copy spawns every copy of its child stages when it first runs. */
  private spawnChildren(parent: SimTask): void {
    if (parent.copy !== 0 || !this.parentStage.includes(parent.stage)) return;
    for (const t of this.tasks) {
      if (this.parentStage[t.stage] !== parent.stage) continue;
      this.register(t, parent);
      this.makeReady(t);
    }
  }

  private setState(t: SimTask, state: TaskState, w: number): void {
    this.board?.setState(t.id, state, w);
  }

  private stall(): void {
    const waiting = this.tasks.filter((t) => t.blocked);
    const shown = waiting.slice(0, 4).map((t) => t.waitingFor);
    this.fail(
      `stalled: no task can run, ${waiting.length} ${waiting.length === 1 ? 'task waits' : 'tasks wait'} forever (${shown.join('; ')}${waiting.length > 4 ? '; …' : ''})`,
    );
  }

  private fail(message: string): void {
    this.stallMessage ??= message;
    this.board?.markStalled();
  }
}
