// Runs one C++ benchmark program inside the page and exposes what it printed as
// window.__benchResult (or window.__benchError); bench/lib/chromium.mjs waits for either.
// The query names the program (/wasm/<program>.js) and its arguments (`arg`, repeated, in order).
const params = new URLSearchParams(location.search);
const log = document.getElementById('log');
const lines = [];
const program = params.get('program') ?? '';

function finish(error) {
  if (window.__benchResult || window.__benchError) return;
  if (error) window.__benchError = String(error?.stack ?? error);
  else window.__benchResult = lines;
}

if (!crossOriginIsolated) {
  finish('page is not cross-origin isolated: SharedArrayBuffer unavailable');
} else if (!/^[a-z0-9_]+$/.test(program)) {
  finish(`program "${program}" is not a program name (allowed: a-z, 0-9, _)`);
} else {
  // The Emscripten glue reads this global; main() runs in a pthread (PROXY_TO_PTHREAD) and its
  // return ends the runtime (EXIT_RUNTIME), which calls onExit with main's status.
  window.Module = {
    arguments: params.getAll('arg'),
    print: (line) => {
      lines.push(line);
      log.textContent += `${line}\n`;
    },
    printErr: (line) => console.error(line),
    onExit: (status) => finish(status === 0 ? undefined : `${program} exited with ${status}`),
    onAbort: (what) => finish(`aborted: ${what}`),
  };
  const script = document.createElement('script');
  script.src = `/wasm/${program}.js`;
  script.onerror = () => finish(`could not load /wasm/${program}.js`);
  document.body.append(script);
}
