// One process of the ringbuf.js benchmark under Node (two worker_threads); prints JSON lines like
// the C++ bench. usage: node ringbuf-node.mjs [batch ...]
import { Worker } from 'node:worker_threads';
import { runRingbuf } from './ringbuf-driver.mjs';

const batches = process.argv.slice(2).map(Number);
const workerUrl = new URL('./ringbuf-worker.mjs', import.meta.url);
const rows = await runRingbuf({
  makeWorker: () => new Worker(workerUrl),
  isNode: true,
  batches: batches.length ? batches : [1, 512],
});
for (const row of rows) console.log(JSON.stringify(row));
