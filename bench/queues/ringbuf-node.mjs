// One process of the ringbuf.js benchmark under Node (two worker_threads); prints one JSON line per
// timed run, like the C++ bench. usage: node ringbuf-node.mjs --rotate K --seconds S [--runs N]
// [--batch B ...]
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { runRingbuf } from './ringbuf-driver.mjs';

const { values } = parseArgs({
  options: {
    rotate: { type: 'string', default: '0' },
    seconds: { type: 'string', default: '0.15' },
    runs: { type: 'string', default: '1' },
    batch: { type: 'string', multiple: true, default: ['1', '512'] },
  },
  strict: true,
});
const workerUrl = new URL('./ringbuf-worker.mjs', import.meta.url);
const samples = await runRingbuf({
  makeWorker: () => new Worker(workerUrl),
  isNode: true,
  batches: values.batch.map(Number),
  targetSeconds: Number(values.seconds),
  rotate: Number(values.rotate),
  runs: Number(values.runs),
});
for (const sample of samples) console.log(JSON.stringify(sample));
