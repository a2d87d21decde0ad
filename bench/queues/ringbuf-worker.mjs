// One side (producer or consumer) of the ringbuf.js benchmark, for a Node worker_thread or a
// browser Worker: the same code measures ringbuf.js in both. Items are float64 counters moved one
// per call or in whole batches; the consumer times each run from the start gate to its last pop.
const isNode = typeof process === 'object' && typeof process.versions?.node === 'string';
// A browser worker drops messages that arrive before its listener exists, so nothing is awaited
// before listen(). Browsers cannot resolve the bare specifier: the bench server serves the ES build.
const ringModule = import(isNode ? 'ringbuf.js' : '/vendor/ringbuf.mjs');
const port = isNode ? (await import('node:worker_threads')).parentPort : self;
const listen = (handler) =>
  isNode ? port.on('message', handler) : port.addEventListener('message', (e) => handler(e.data));

let ring;
let gate; // Int32Array over a SharedArrayBuffer: [run number released by the main thread]

function produce(items, batch) {
  const buffer = new Float64Array(batch);
  let next = 0;
  while (next < items) {
    const count = Math.min(batch, items - next);
    for (let i = 0; i < count; ++i) buffer[i] = next + i;
    let written = 0;
    while (written < count) written += ring.push(buffer, count - written, written);
    next += count;
  }
  return 0;
}

function consume(items, batch) {
  const buffer = new Float64Array(batch);
  let received = 0;
  let outOfOrder = 0;
  while (received < items) {
    const count = ring.pop(buffer, Math.min(batch, items - received));
    for (let i = 0; i < count; ++i) outOfOrder += buffer[i] !== received + i ? 1 : 0;
    received += count;
  }
  return outOfOrder;
}

listen(async (message) => {
  if (message.cmd === 'init') {
    const { RingBuffer } = await ringModule;
    ring = new RingBuffer(message.ringStorage, Float64Array);
    gate = new Int32Array(message.gateStorage);
    port.postMessage({ ready: true });
    return;
  }
  // cmd === 'run': wait for the gate, then move the items.
  Atomics.wait(gate, 0, message.run - 1);
  const start = performance.now();
  const errors =
    message.role === 'producer'
      ? produce(message.items, message.batch)
      : consume(message.items, message.batch);
  port.postMessage({ seconds: (performance.now() - start) / 1000, errors });
});
