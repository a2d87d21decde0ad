// Binary min-heap of timed simulation events in typed arrays; ties broken by insertion order.

/** Each entry: time (µs), a sequence number (FIFO among equal times, hence reproducible) and two
 * integer payload fields interpreted by the runtime. */
export class EventHeap {
  private times = new Float64Array(64);
  private seqs = new Float64Array(64);
  private as = new Int32Array(64);
  private bs = new Int32Array(64);
  private count = 0;
  private nextSeq = 0;
  /** Payload of the last popped entry. */
  a = 0;
  b = 0;

  get size(): number {
    return this.count;
  }

  peekTime(): number {
    return this.count > 0 ? this.times[0] : Infinity;
  }

  push(time: number, a: number, b: number): void {
    if (this.count === this.times.length) this.grow();
    let i = this.count++;
    const seq = this.nextSeq++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!less(time, seq, this.times[parent], this.seqs[parent])) break;
      this.move(parent, i);
      i = parent;
    }
    this.set(i, time, seq, a, b);
  }

  /** Removes the earliest entry, returns its time and leaves its payload in `a`, `b`. */
  pop(): number {
    const { times, seqs } = this;
    const time = times[0];
    this.a = this.as[0];
    this.b = this.bs[0];
    const last = --this.count;
    if (last > 0) {
      const t = times[last];
      const s = seqs[last];
      const a = this.as[last];
      const b = this.bs[last];
      let i = 0;
      for (;;) {
        let child = 2 * i + 1;
        if (child >= last) break;
        const right = child + 1;
        if (right < last && less(times[right], seqs[right], times[child], seqs[child]))
          child = right;
        if (!less(times[child], seqs[child], t, s)) break;
        this.move(child, i);
        i = child;
      }
      this.set(i, t, s, a, b);
    }
    return time;
  }

  private move(from: number, to: number): void {
    this.set(to, this.times[from], this.seqs[from], this.as[from], this.bs[from]);
  }

  private set(i: number, time: number, seq: number, a: number, b: number): void {
    this.times[i] = time;
    this.seqs[i] = seq;
    this.as[i] = a;
    this.bs[i] = b;
  }

  private grow(): void {
    const n = this.times.length * 2;
    const grow = <T extends Float64Array | Int32Array>(old: T, make: (n: number) => T): T => {
      const next = make(n);
      next.set(old);
      return next;
    };
    this.times = grow(this.times, (k) => new Float64Array(k));
    this.seqs = grow(this.seqs, (k) => new Float64Array(k));
    this.as = grow(this.as, (k) => new Int32Array(k));
    this.bs = grow(this.bs, (k) => new Int32Array(k));
  }
}

function less(t1: number, s1: number, t2: number, s2: number): boolean {
  return t1 < t2 || (t1 === t2 && s1 < s2);
}
