// Runs one benchmark process inside the page and exposes its JSON lines as window.__benchResult
// (or window.__benchError); bench/queues/chromium.mjs waits for either. The query gives the mode
// (wasm: the C++ bench, ringbuf: ringbuf.js between two Workers) and the method's parameters.
const params = new URLSearchParams(location.search);
const log = document.getElementById('log');
const lines = [];
const seconds = params.get('seconds') ?? '0.15';
const rotate = params.get('rotate') ?? '0';
const runs = params.get('runs') ?? '1';

function finish(error) {
  if (error) window.__benchError = String(error?.stack ?? error);
  else window.__benchResult = lines;
}

if (!crossOriginIsolated) {
  finish('page is not cross-origin isolated: SharedArrayBuffer unavailable');
} else if (params.get('mode') === 'ringbuf') {
  const { runRingbuf } = await import('/bench/queues/ringbuf-driver.mjs');
  runRingbuf({
    makeWorker: () => new Worker('/bench/queues/ringbuf-worker.mjs', { type: 'module' }),
    isNode: false,
    batches: params.getAll('batch').map(Number),
    targetSeconds: Number(seconds),
    rotate: Number(rotate),
    runs: Number(runs),
  }).then((rows) => {
    for (const row of rows) lines.push(JSON.stringify(row));
    finish();
  }, finish);
} else {
  // The Emscripten glue reads this global; main() runs in a pthread (PROXY_TO_PTHREAD).
  window.Module = {
    arguments: [
      '--seconds',
      seconds,
      '--group',
      params.get('group') ?? 'comm-2',
      '--rotate',
      rotate,
      '--runs',
      runs,
    ],
    print: (line) => {
      lines.push(line);
      log.textContent += `${line}\n`;
      if (line.includes('"done":true')) finish();
    },
    printErr: (line) => console.error(line),
    onAbort: (what) => finish(`aborted: ${what}`),
  };
  const script = document.createElement('script');
  script.src = '/wasm/bench_queues_web.js';
  script.onerror = () => finish('could not load /wasm/bench_queues_web.js');
  document.body.append(script);
}
