// A scripted stand-in for the engine worker, shared by the page-side engine clients' tests
// (counting, threads, race): records what the page sends, replies as the worker would.
import type { FromEngine, ToEngine } from '../../../src/engine/protocol';

export class FakeWorker {
  sent: ToEngine[] = [];
  terminated = false;
  onmessage: ((e: MessageEvent<FromEngine>) => void) | null = null;
  onerror: ((e: ErrorEvent) => void) | null = null;
  postMessage(msg: ToEngine) {
    this.sent.push(msg);
  }
  terminate() {
    this.terminated = true;
  }
  reply(msg: FromEngine) {
    this.onmessage?.({ data: msg } as MessageEvent<FromEngine>);
  }
  /** The last message of this type the page sent. */
  last<T extends ToEngine['type']>(type: T) {
    return this.sent.filter((m) => m.type === type).at(-1) as Extract<ToEngine, { type: T }>;
  }
  types() {
    return this.sent.map((m) => m.type);
  }
}

/** A threaded engine's `ready`, with shared memory of `memoryBytes`. */
export const threadedReady = (memoryBytes: number): FromEngine => ({
  type: 'ready',
  info: {
    threaded: true,
    hardwareConcurrency: 2,
    maxThreads: 64,
    iterationsPerUs: 100,
    memory: new SharedArrayBuffer(memoryBytes),
    slotsAddress: 0,
  },
});
