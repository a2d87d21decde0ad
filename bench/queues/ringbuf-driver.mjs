// Drives the ringbuf.js benchmark from a main thread (Node or a browser page): creates the ring and
// two workers, then measures like the C++ bench (bench_queues.cpp): per batch size a warm-up run
// and a run that sizes the timed runs to targetSeconds, timed runs of at least 100 ms (a shorter
// one is run again with twice the items), the batch sizes in an order rotated by `rotate`.
// Returns one sample per timed run, shaped like the C++ bench's lines (group comm-2).
import { rotate as rotated } from '../lib/rounds.mjs';

// Browsers cannot resolve the bare specifier; the bench server serves the package's ES build.
const { RingBuffer } = await import(
  typeof process === 'object' && process.versions?.node ? 'ringbuf.js' : '/vendor/ringbuf.mjs'
);

const CAPACITY = 1024; // float64 slots, as in the C++ queues
const WARM_ITEMS = 200_000;
const MAX_ITEMS = 400_000_000;
const MIN_SECONDS = 0.1; // as kMinSeconds in bench_queues.cpp

function request(worker, message, isNode) {
  return new Promise((resolve) => {
    const onMessage = (event) => {
      const data = isNode ? event : event.data;
      if (isNode) worker.off('message', onMessage);
      else worker.removeEventListener('message', onMessage);
      resolve(data);
    };
    if (isNode) worker.on('message', onMessage);
    else worker.addEventListener('message', onMessage);
    worker.postMessage(message);
  });
}

/**
 * @param {{makeWorker: () => any, isNode: boolean, batches: number[], targetSeconds?: number,
 *   rotate?: number, runs?: number}} options  makeWorker returns a Worker (node:worker_threads or
 *   DOM) running ringbuf-worker.mjs.
 */
export async function runRingbuf({
  makeWorker,
  isNode,
  batches,
  targetSeconds = 0.15,
  rotate = 0,
  runs = 1,
}) {
  const ringStorage = RingBuffer.getStorageForCapacity(CAPACITY, Float64Array);
  const gateStorage = new SharedArrayBuffer(4);
  const gate = new Int32Array(gateStorage);
  const producer = makeWorker();
  const consumer = makeWorker();
  for (const worker of [producer, consumer]) {
    await request(worker, { cmd: 'init', ringStorage, gateStorage }, isNode);
  }
  let gateRun = 0;
  const run = async (items, batch) => {
    gateRun += 1;
    const done = Promise.all([
      request(producer, { cmd: 'run', role: 'producer', items, batch, run: gateRun }, isNode),
      request(consumer, { cmd: 'run', role: 'consumer', items, batch, run: gateRun }, isNode),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 20)); // both workers reach the gate
    Atomics.store(gate, 0, gateRun);
    Atomics.notify(gate, 0);
    const [, result] = await done;
    if (result.errors !== 0)
      throw new Error(`ringbuf.js delivered ${result.errors} items out of order`);
    return result.seconds;
  };
  const itemsFor = (perSecond) =>
    Math.round(Math.min(MAX_ITEMS, Math.max(WARM_ITEMS, perSecond * targetSeconds)));
  const items = new Map();
  for (const batch of rotated(batches, rotate)) {
    const warm = await run(WARM_ITEMS, batch);
    const sizing = itemsFor(WARM_ITEMS / warm);
    items.set(batch, itemsFor(sizing / (await run(sizing, batch))));
  }
  const samples = [];
  for (let r = 0; r < runs; ++r) {
    for (const batch of rotated(batches, rotate + r)) {
      let seconds = await run(items.get(batch), batch);
      while (seconds < MIN_SECONDS && items.get(batch) < MAX_ITEMS) {
        items.set(batch, Math.min(MAX_ITEMS, items.get(batch) * 2));
        seconds = await run(items.get(batch), batch);
      }
      const n = items.get(batch);
      samples.push({
        key: `comm-2/ringbuf-js-b${batch}`,
        group: 'comm-2',
        queue: 'ringbuf-js',
        variant: 'comm',
        stages: 2,
        threads: 2,
        capacity: CAPACITY,
        batch,
        items: n,
        seconds,
        items_per_s: n / seconds,
        bytes_per_s: (n * 8) / seconds,
      });
    }
  }
  producer.terminate();
  consumer.terminate();
  return samples;
}
