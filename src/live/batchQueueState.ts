// Folds a BatchQueue link's real index moves (the batch-* telemetry events, contracts/telemetry.md)
// into what the cache-line view draws: each semi-buffer's slots written and read, whether it is
// published (`status`), where the producer and the consumer are, which thread last wrote each
// 64-byte line, and two counts: `status` flips, and cache lines handed between the two cores per
// item. Nothing here is replayed or made up: every change comes from an event the C++ link
// recorded right after the real queue moved (pipeline/link.hpp, BatchLink).
//
// Lines handed between cores are counted from those moves with a two-core model of the lines
// each move touches (queues/batch_queue.hpp): a write of slot k writes its data line and the
// producer's state line; a publish reads and writes the line of `status` (and the published
// count beside it); a read of slot k reads its data line (slot 0 of a semi-buffer also reads
// `status` and the count) and writes the consumer's state line; a release writes `status`. A
// touch of a line the other core touched last counts one hand-over (the line, or the right to
// write it, has to move). The same moves are counted twice: with BatchQueue's real layout (each
// side's state and `status` on lines of their own) and with the unpadded layout (all three on
// one line, batch_queue_unpadded.hpp), so the view can show what packing would cost.
//
// Causal order, not just time order: each side stamps a move after its call, and the page reads
// the producer's ring and then the consumer's, so a frame can hold moves whose cause is missing
// or stamped later — a producer preempted between its flush and its clock read stamps the
// publish after the consumer's reads and release of that semi-buffer, and a page preempted
// between the two rings reads the consumer many semi-buffers past the producer's records (both
// seen in loaded runs: the view ended with `status` true, or short of the items read). `status`
// alternates strictly — only a producer seeing it false publishes, only a consumer seeing it
// true takes a semi-buffer and releases it — so a move that needs the other value waits, with
// its side's later moves, until the other side's move arrives (a later frame: every move is
// recorded). One side can always move. Only a dropped record (a full ring: the tap's count
// grows) can leave a side waiting for good: then every waiting move goes ahead in time order.
import type { ExperimentSpec } from '../spec/experimentSpec';
import { decodeBatchArg, type TelemetryEvent } from '../telemetry';

/** Bytes of a pipeline item in a C++ queue (pipeline/item.hpp: sequence number and value). */
export const PIPELINE_ITEM_BYTES = 16;

/**
 * The first link of a run when it is a BatchQueue whose indices the C++ reports: queue kind
 * `batch` and one thread on each side of the link (pipeline/link.hpp), in a runtime whose links
 * report them (the static runtime's module asks this; src/runtimes). Its semi-buffer is half the
 * capacity as the link rounds it (even, >= 2).
 */
export function firstBatchLink(
  spec: ExperimentSpec,
): { semiItems: number; itemBytes: number } | null {
  if (spec.queue.kind !== 'batch' || spec.stages.length < 2) return null;
  if (spec.stages[0].threads !== 1 || spec.stages[1].threads !== 1) return null;
  const cap = spec.queue.capacity;
  if (cap === null) return null;
  const even = cap < 2 ? 2 : cap + (cap & 1);
  return { semiItems: even / 2, itemBytes: PIPELINE_ITEM_BYTES };
}

export type CoreSide = 'producer' | 'consumer';

export interface SemiBufferState {
  /** Slots written since the consumer last released this semi-buffer. */
  written: number;
  /** Slots read from it since it was published. */
  read: number;
  /** Items handed over by the publish now in force (null: not published). */
  published: number | null;
  /** That publish was a flush() of a partial semi-buffer. */
  flushed: boolean;
}

export interface BatchQueueSnapshot {
  semiItems: number;
  itemsPerLine: number;
  /** Cache lines per semi-buffer. */
  linesPerSemi: number;
  halves: [SemiBufferState, SemiBufferState];
  /** The shared flag: true from a publish until the consumer's release. */
  status: boolean;
  /** Last writer of `status` (null before the first publish). */
  statusWriter: CoreSide | null;
  /** Which side last wrote each data line, per semi-buffer (only the producer writes slots; null:
   * not written yet) and which side touched it last (a read moves a copy to the consumer). */
  lineWriter: [Array<CoreSide | null>, Array<CoreSide | null>];
  lineHolder: [Array<CoreSide | null>, Array<CoreSide | null>];
  /** The semi-buffer the producer fills and the slots it has written there. */
  producer: { half: 0 | 1; next: number };
  /** The semi-buffer the consumer reads (or will read next) and the slots it has read there. */
  consumer: { half: 0 | 1; next: number; holding: boolean };
  itemsWritten: number;
  itemsRead: number;
  publishes: number;
  flushes: number;
  releases: number;
  /** `status` flips: publishes + releases. */
  flips: number;
  /** Lines handed between the cores per item read, with the real and the unpadded layout. */
  handoffsPerItem: { padded: number; unpadded: number };
}

/** Counts hand-overs: a touch of a line the other side touched last. */
class LineLedger {
  private readonly last = new Map<string, CoreSide>();
  handoffs = 0;
  touch(line: string, side: CoreSide): void {
    const before = this.last.get(line);
    if (before !== undefined && before !== side) this.handoffs++;
    this.last.set(line, side);
  }
}

const emptyHalf = (): SemiBufferState => ({ written: 0, read: 0, published: null, flushed: false });

const SIDES: readonly CoreSide[] = ['producer', 'consumer'];
/** A bound on one side's waiting moves, so memory stays bounded whatever happens (a side waits
 * for the other's records of one frame; ~2 µs services make ~5,000 moves in a 10 ms stall). */
const MAX_WAITING = 1 << 16;

/** Which side of the link made a batch move (null: not a batch event). */
function sideOf(e: TelemetryEvent): CoreSide | null {
  if (e.kind === 'batch-write' || e.kind === 'batch-publish') return 'producer';
  if (e.kind === 'batch-read' || e.kind === 'batch-release') return 'consumer';
  return null;
}

export class BatchQueueTracker {
  readonly itemsPerLine: number;
  readonly linesPerSemi: number;
  private halves: [SemiBufferState, SemiBufferState] = [emptyHalf(), emptyHalf()];
  private lineWriter: [Array<CoreSide | null>, Array<CoreSide | null>];
  private lineHolder: [Array<CoreSide | null>, Array<CoreSide | null>];
  private status = false;
  private statusWriter: CoreSide | null = null;
  private producer: { half: 0 | 1; next: number } = { half: 0, next: 0 };
  private consumer: { half: 0 | 1; next: number; holding: boolean } = {
    half: 0,
    next: 0,
    holding: false,
  };
  private itemsWritten = 0;
  private itemsRead = 0;
  private publishes = 0;
  private flushes = 0;
  private releases = 0;
  private readonly padded = new LineLedger();
  private readonly unpadded = new LineLedger();
  /** Each side's events not applied yet, in its own order. */
  private readonly waiting: Record<CoreSide, TelemetryEvent[]> = { producer: [], consumer: [] };
  private dropped = 0;

  /**
   * @param semiItems items per semi-buffer (the link's capacity / 2)
   * @param itemBytes bytes per item (a pipeline item: 16)
   * @param lineBytes the cache line (64)
   */
  constructor(
    readonly semiItems: number,
    itemBytes: number,
    lineBytes = 64,
  ) {
    this.itemsPerLine = Math.max(1, Math.floor(lineBytes / itemBytes));
    this.linesPerSemi = Math.ceil(semiItems / this.itemsPerLine);
    const lines = () => new Array<CoreSide | null>(this.linesPerSemi).fill(null);
    this.lineWriter = [lines(), lines()];
    this.lineHolder = [lines(), lines()];
  }

  /** Applies events in time order, each side's held back while it needs the other's move (see
   * the top of this file); events of other kinds are ignored. dropped: the records the rings had
   * dropped so far (TapFrame.dropped); when it grows, every waiting move goes ahead. */
  advance(events: TelemetryEvent[], dropped = 0): void {
    for (const e of events) {
      const side = sideOf(e);
      if (!side) continue;
      this.waiting[side].push(e);
      this.drain();
    }
    if (dropped > this.dropped) {
      this.dropped = dropped;
      this.applyAllWaiting();
    }
  }

  /** Moves each side's waiting events that may go now, in order. */
  private drain(): void {
    for (let moved = true; moved;) {
      moved = false;
      for (const side of SIDES) {
        const queue = this.waiting[side];
        while (queue.length > 0 && (this.mayApply(queue[0]) || queue.length > MAX_WAITING)) {
          this.apply(queue.shift()!);
          moved = true;
        }
      }
    }
  }

  /** Applies every waiting move, both sides merged in time order (a record is lost for good). */
  private applyAllWaiting(): void {
    const [p, c] = [this.waiting.producer, this.waiting.consumer];
    while (p.length > 0 || c.length > 0) {
      const side = c.length === 0 || (p.length > 0 && p[0].timeUs <= c[0].timeUs) ? p : c;
      this.apply(side.shift()!);
    }
  }

  /** A publish needs `status` false; taking a semi-buffer (its slot 0) and releasing it, true. */
  private mayApply(e: TelemetryEvent): boolean {
    if (e.kind === 'batch-publish') return !this.status;
    if (e.kind === 'batch-release') return this.status;
    if (e.kind === 'batch-read') return this.consumer.holding || this.status;
    return true;
  }

  private apply(e: TelemetryEvent): void {
    if (e.kind === 'batch-write') this.write(e.arg);
    else if (e.kind === 'batch-publish') this.publish(e.arg);
    else if (e.kind === 'batch-read') this.read(e.arg);
    else this.release(e.arg);
  }

  snapshot(): BatchQueueSnapshot {
    const per = (n: number) => (this.itemsRead > 0 ? n / this.itemsRead : 0);
    return {
      semiItems: this.semiItems,
      itemsPerLine: this.itemsPerLine,
      linesPerSemi: this.linesPerSemi,
      halves: [{ ...this.halves[0] }, { ...this.halves[1] }],
      status: this.status,
      statusWriter: this.statusWriter,
      lineWriter: [this.lineWriter[0].slice(), this.lineWriter[1].slice()],
      lineHolder: [this.lineHolder[0].slice(), this.lineHolder[1].slice()],
      producer: { ...this.producer },
      consumer: { ...this.consumer },
      itemsWritten: this.itemsWritten,
      itemsRead: this.itemsRead,
      publishes: this.publishes,
      flushes: this.flushes,
      releases: this.releases,
      flips: this.publishes + this.releases,
      handoffsPerItem: { padded: per(this.padded.handoffs), unpadded: per(this.unpadded.handoffs) },
    };
  }

  private lineOf(slot: number): number {
    return Math.min(this.linesPerSemi - 1, Math.floor(slot / this.itemsPerLine));
  }

  /** Touches one line in both layouts: data lines are the same in both; the state lines and
   * `status` are one line when unpadded. */
  private touch(line: 'producer-state' | 'consumer-state' | 'status' | string, side: CoreSide) {
    this.padded.touch(line, side);
    const packed = line === 'producer-state' || line === 'consumer-state' || line === 'status';
    this.unpadded.touch(packed ? 'state' : line, side);
  }

  private write(arg: number): void {
    const { half, count: slot } = decodeBatchArg(arg);
    const h = this.halves[half];
    h.written = Math.max(h.written, slot + 1);
    const line = this.lineOf(slot);
    this.lineWriter[half][line] = 'producer';
    this.lineHolder[half][line] = 'producer';
    this.touch(`data-${half}-${line}`, 'producer');
    this.touch('producer-state', 'producer');
    this.producer = { half, next: slot + 1 };
    this.itemsWritten++;
  }

  private publish(arg: number): void {
    const { half, count, flush } = decodeBatchArg(arg);
    const h = this.halves[half];
    h.published = count;
    h.flushed = flush;
    h.read = 0;
    this.status = true;
    this.statusWriter = 'producer';
    this.publishes++;
    if (flush) this.flushes++;
    this.touch('status', 'producer'); // reads `status`, then writes it and the count beside it
    this.touch('producer-state', 'producer');
    this.producer = { half: half === 0 ? 1 : 0, next: 0 };
  }

  private read(arg: number): void {
    const { half, count: slot } = decodeBatchArg(arg);
    const h = this.halves[half];
    if (slot === 0) this.touch('status', 'consumer'); // sees the publish and the count
    h.read = Math.max(h.read, slot + 1);
    const line = this.lineOf(slot);
    this.lineHolder[half][line] = 'consumer';
    this.touch(`data-${half}-${line}`, 'consumer');
    this.touch('consumer-state', 'consumer');
    this.consumer = { half, next: slot + 1, holding: true };
    this.itemsRead++;
  }

  private release(arg: number): void {
    const { half } = decodeBatchArg(arg);
    this.halves[half] = emptyHalf();
    this.status = false;
    this.statusWriter = 'consumer';
    this.releases++;
    this.touch('status', 'consumer');
    this.touch('consumer-state', 'consumer');
    this.consumer = { half: half === 0 ? 1 : 0, next: 0, holding: false };
  }
}
