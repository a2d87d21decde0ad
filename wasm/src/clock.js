// pipelab_now_ms() / pipelab_clock_drift_ms(): the time source of the telemetry clock in wasm
// (telemetry/run_telemetry.hpp, steady_us), an Emscripten JS library linked into every wasm target
// through pipelab_core.
// In a page or a Worker, pipelab_now_ms IS performance.now, bound to `performance`, so the wasm
// import calls the browser's function directly. emscripten_get_now() wraps the same call in a JS
// arrow function that also subtracts the Worker's clock drift; in Chromium that wrapper cost about
// 4% of a run of 10 us stages with telemetry on (bench/README.md, section A). The drift (each
// Worker's performance.now() counts from that Worker's start; Emscripten measures the difference
// when the Worker starts) is the same number on every call, so C++ asks for it once per thread.
// Under Node both are what emscripten_get_now() uses: process.hrtime, one origin for all threads.
mergeInto(LibraryManager.library, {
  pipelab_now_ms__deps: ['emscripten_get_now'],
  pipelab_now_ms:
    ';' +
    '_pipelab_now_ms = ENVIRONMENT_IS_NODE ? _emscripten_get_now : performance.now.bind(performance);',
  pipelab_clock_drift_ms: function () {
    return (ENVIRONMENT_IS_NODE ? 0 : Module['__performance_now_clock_drift']) || 0;
  },
});
