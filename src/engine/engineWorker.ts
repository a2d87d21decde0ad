// The engine Web Worker: hosts the wasm core. In the threaded build it becomes Emscripten's main
// runtime thread, starts the pthreads and may block briefly (the page never does); it never waits
// for threads synchronously, because extra pthread Workers only start once this worker returns to
// its event loop. In the single-thread build it runs the workers' loops in time slices instead.
import {
  pipelineError,
  readPipelineOutput,
  startWasmPipeline,
  whenPipelineFinished,
} from './pipeline/wasmPipeline';
import {
  COUNTING_SLOT_WORDS,
  type CountingParams,
  type FromEngine,
  type ToEngine,
} from './protocol';
import type { ExperimentSpec } from '../spec/experimentSpec';
import { check, type ModuleFactory, type PipelabModule } from './wasmExports';
import { handleRaceMessage } from './race/raceWorker';

const SLICE_US = 8000;
const POLL_MS = 2;

let mod: PipelabModule | null = null;
let running: CountingParams | null = null;
let sliceTimer: ReturnType<typeof setTimeout> | null = null;

const post = (msg: FromEngine, transfer: Transferable[] = []) => self.postMessage(msg, transfer);

async function init(moduleUrl: string, threaded: boolean, poolSize: number): Promise<void> {
  const factory = (await import(/* @vite-ignore */ moduleUrl)).default as ModuleFactory;
  mod = await factory(threaded ? { pthreadPoolSize: poolSize } : {});
  post({
    type: 'ready',
    info: {
      threaded: mod._pl_threaded() === 1,
      hardwareConcurrency: mod._pl_hardware_concurrency(),
      maxThreads: mod._pl_counting_max_threads(),
      iterationsPerUs: mod._pl_counting_iterations_per_us(),
      memory: mod._pl_threaded() ? (mod.HEAPU8.buffer as SharedArrayBuffer) : null,
      slotsAddress: mod._pl_counting_slots(),
    },
  });
}

function readCounts(m: PipelabModule, threads: number): Float64Array {
  const stride = m._pl_counting_stride_bytes() / 8;
  const slots = new BigUint64Array(m.HEAPU8.buffer, m._pl_counting_slots(), COUNTING_SLOT_WORDS);
  const counts = new Float64Array(threads);
  for (let i = 0; i < threads; i++) counts[i] = Number(slots[i * stride]);
  return counts;
}

function runSlice(): void {
  if (!mod || !running) return;
  const p = running;
  check(mod, mod._pl_counting_run_slice(p.threads, p.padded ? 1 : 0, p.workUs, SLICE_US));
  const counts = readCounts(mod, p.threads);
  post({ type: 'counts', counts }, [counts.buffer]);
  sliceTimer = setTimeout(runSlice, 0);
}

function start(params: CountingParams): void {
  if (!mod) throw new Error('engine not initialised');
  // The page sends one run at a time (see CountingEngine); a join here could wait on pthread
  // Workers that are still booting, which only happens once this worker returns to its event loop.
  if (running) throw new Error('a run is active: stop it first');
  if (mod._pl_threaded()) {
    check(mod, mod._pl_counting_start(params.threads, params.padded ? 1 : 0, params.workUs));
  } else {
    // Reset the counters with a zero-length slice, then keep slicing until stopped.
    check(mod, mod._pl_counting_run_slice(params.threads, params.padded ? 1 : 0, params.workUs, 0));
  }
  running = params;
  post({ type: 'started', params, strideBytes: mod._pl_counting_stride_bytes() });
  if (!mod._pl_threaded()) sliceTimer = setTimeout(runSlice, 0);
}

function poolWorkers(m: PipelabModule): number {
  return m.PThread ? m.PThread.unusedWorkers.length + m.PThread.runningWorkers.length : 0;
}

/** Single-thread: cancel the next slice. Threads: request a stop, poll until all exited, join.
 * Either way the final counts are read only then, and travel with 'stopped'. */
function stop(): void {
  if (!mod || !running) return;
  const m = mod;
  const { threads } = running;
  const t0 = performance.now();
  running = null;
  if (sliceTimer !== null) clearTimeout(sliceTimer);
  sliceTimer = null;
  const stopped = (pool: number) => {
    const counts = readCounts(m, threads);
    post({ type: 'stopped', poolWorkers: pool, stopMs: performance.now() - t0, counts }, [
      counts.buffer,
    ]);
  };
  if (!m._pl_threaded()) return stopped(0);
  m._pl_counting_request_stop();
  const poll = () => {
    if (m._pl_counting_alive() > 0) {
      setTimeout(poll, POLL_MS);
      return;
    }
    m._pl_counting_join();
    stopped(poolWorkers(m));
  };
  poll();
}

/** Starts a pipeline run and reports when all its threads have been joined. */
function pipelineStart(spec: ExperimentSpec): void {
  if (!mod) throw new Error('engine not initialised');
  const m = mod;
  if (!m._pl_threaded()) throw new Error('pipeline runs need the threaded build');
  pauseRequest++;
  post({ type: 'pipeline-started', layout: startWasmPipeline(m, spec) });
  whenPipelineFinished(m).then(() => {
    post({
      type: 'pipeline-finished',
      completed: m._pl_pipeline_completed(),
      elapsedUs: m._pl_pipeline_elapsed_us(),
      cancelled: cancelRequested,
      output: cancelRequested ? null : readPipelineOutput(m),
      error: pipelineError(m),
    });
    cancelRequested = false;
  });
}

let cancelRequested = false;

function pipelineCancel(): void {
  pauseRequest++;
  if (!mod || mod._pl_pipeline_finished()) return;
  cancelRequested = true;
  mod._pl_pipeline_request_cancel();
}

/** Numbers pause requests: a later resume, cancel or start makes an earlier poll stop quietly. */
let pauseRequest = 0;

/** Requests the pause and polls (never blocks) until every running thread has parked. */
function pipelinePause(): void {
  if (!mod || mod._pl_pipeline_finished()) return;
  const m = mod;
  const request = ++pauseRequest;
  m._pl_pipeline_pause();
  const poll = () => {
    if (request !== pauseRequest || m._pl_pipeline_finished()) return;
    if (!m._pl_pipeline_paused()) return void setTimeout(poll, POLL_MS);
    post({ type: 'pipeline-paused', nowUs: m._pl_pipeline_now_us() });
  };
  poll();
}

function pipelineResume(): void {
  pauseRequest++;
  mod?._pl_pipeline_resume();
}

self.onmessage = (event: MessageEvent<ToEngine>) => {
  const msg = event.data;
  try {
    if (msg.type === 'init') {
      init(msg.moduleUrl, msg.threaded, msg.poolSize).catch((e: unknown) =>
        post({ type: 'error', message: `could not load the wasm engine: ${String(e)}` }),
      );
    } else if (msg.type === 'start') start(msg.params);
    else if (msg.type === 'stop') stop();
    else if (msg.type === 'pipeline-start') pipelineStart(msg.spec);
    else if (msg.type === 'pipeline-cancel') pipelineCancel();
    else if (msg.type === 'pipeline-pause') pipelinePause();
    else if (msg.type === 'pipeline-resume') pipelineResume();
    else if (
      msg.type === 'race-start' ||
      msg.type === 'race-cancel' ||
      msg.type === 'queue-layouts'
    )
      handleRaceMessage(mod, msg, post);
  } catch (e) {
    post({ type: 'error', message: e instanceof Error ? e.message : String(e) });
  }
};
