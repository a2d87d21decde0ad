// Drives the ringbuf.js benchmark from a main thread (Node or a browser page): creates the ring and
// two workers, runs a warm-up that also sizes the run, then the best of 3 timed runs per batch size.
// Returns rows shaped like the C++ bench's lines.
// Browsers cannot resolve the bare specifier; the bench server serves the package's ES build.
const { RingBuffer } = await import(
  typeof process === 'object' && process.versions?.node ? 'ringbuf.js' : '/vendor/ringbuf.mjs'
);

const CAPACITY = 1024; // float64 slots, as in the C++ queues
const WARM_ITEMS = 200_000;

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

// makeWorker() returns a Worker (node:worker_threads or DOM) running ringbuf-worker.mjs.
export async function runRingbuf({ makeWorker, isNode, batches, targetSeconds = 0.25 }) {
  const ringStorage = RingBuffer.getStorageForCapacity(CAPACITY, Float64Array);
  const gateStorage = new SharedArrayBuffer(4);
  const gate = new Int32Array(gateStorage);
  const producer = makeWorker();
  const consumer = makeWorker();
  for (const worker of [producer, consumer]) {
    await request(worker, { cmd: 'init', ringStorage, gateStorage }, isNode);
  }
  let run = 0;
  const timed = async (items, batch) => {
    run += 1;
    const done = Promise.all([
      request(producer, { cmd: 'run', role: 'producer', items, batch, run }, isNode),
      request(consumer, { cmd: 'run', role: 'consumer', items, batch, run }, isNode),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 20)); // both workers reach the gate
    Atomics.store(gate, 0, run);
    Atomics.notify(gate, 0);
    const [, result] = await done;
    if (result.errors !== 0)
      throw new Error(`ringbuf.js delivered ${result.errors} items out of order`);
    return result.seconds;
  };
  const rows = [];
  for (const batch of batches) {
    const warmSeconds = await timed(WARM_ITEMS, batch);
    const items = Math.round(
      Math.min(200e6, Math.max(WARM_ITEMS, (WARM_ITEMS / warmSeconds) * targetSeconds)),
    );
    let seconds = Infinity; // best of 3 timed runs, as in the C++ bench
    for (let run = 0; run < 3; ++run) seconds = Math.min(seconds, await timed(items, batch));
    rows.push({
      queue: 'ringbuf-js',
      variant: 'comm',
      stages: 2,
      threads: 2,
      capacity: CAPACITY,
      batch,
      items,
      seconds,
      items_per_s: items / seconds,
      bytes_per_s: (items * 8) / seconds,
    });
  }
  producer.terminate();
  consumer.terminate();
  return rows;
}
