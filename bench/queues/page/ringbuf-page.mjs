// Runs ringbuf.js between two Workers inside the page and exposes its JSON lines as
// window.__benchResult (or window.__benchError); bench/lib/chromium.mjs waits for either. The
// query gives the batch sizes (`batch`, repeated) and the method's parameters.
const params = new URLSearchParams(location.search);
const lines = [];

function finish(error) {
  if (error) window.__benchError = String(error?.stack ?? error);
  else window.__benchResult = lines;
}

if (!crossOriginIsolated) {
  finish('page is not cross-origin isolated: SharedArrayBuffer unavailable');
} else {
  const { runRingbuf } = await import('/bench/queues/ringbuf-driver.mjs');
  runRingbuf({
    makeWorker: () => new Worker('/bench/queues/ringbuf-worker.mjs', { type: 'module' }),
    isNode: false,
    batches: params.getAll('batch').map(Number),
    targetSeconds: Number(params.get('seconds') ?? '0.15'),
    rotate: Number(params.get('rotate') ?? '0'),
    runs: Number(params.get('runs') ?? '1'),
  }).then((rows) => {
    for (const row of rows) lines.push(JSON.stringify(row));
    finish();
  }, finish);
}
