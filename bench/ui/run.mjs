// `npm run bench:ui`: the page under load, in Debian's Chromium against the production build
// served with COOP/COEP. Measures (1) frame times while a real-threads run streams telemetry
// (target: p95 ≤ 20 ms at ≥ 200k events/s, with one worker thread per core) and (2) how long a
// lesson takes to become interactive after navigation (target ≤ 1.5 s). Also reported, without a
// target: the same stream with cores × 4 threads, where the page competes with busy threads for
// the cores. Writes bench/results/ui-chromium.json. A report, not a test.
import { cpus } from 'node:os';
import { join } from 'node:path';
import { launchBrowser } from '../../scripts/lib/browser.mjs';
import { repoRoot, run } from '../../scripts/lib/proc.mjs';
import { serveStatic } from '../../scripts/lib/staticServer.mjs';
import { parseFlags, runMain } from '../lib/cli.mjs';
import { loadTracker, machineBlock } from '../lib/machine.mjs';
import { writeReport } from '../lib/report.mjs';
import { rotate } from '../lib/rounds.mjs';
import { median, percentile, spread } from '../lib/stats.mjs';

const FLAGS = {
  repeats: { type: 'integer', default: 5, min: 1, max: 50, help: 'repeats of each measurement' },
};
const CORES = cpus().length;
/**
 * One worker per core (the target's case), and oversubscribed four times (reported only), capped
 * at the threads engine's 64 (THREADS_ENGINE_MAX_THREADS; beyond it the page would simulate).
 */
const THREAD_COUNTS = [CORES, Math.min(CORES * 4, 64)];

/** µs-scale stages and many items: a dense telemetry stream (the lessons run in slow motion). */
const STREAM_SPEC = {
  runtime: 'work-stealing',
  stages: [
    { name: 'input', mode: 'serial-in-order', threads: 1, service: { kind: 'fixed', us: 2 } },
    { name: 'work', mode: 'parallel', threads: 1, service: { kind: 'fixed', us: 5 } },
    { name: 'output', mode: 'serial-in-order', threads: 1, service: { kind: 'fixed', us: 2 } },
  ],
  threads: CORES,
  tokens: 8,
  items: 400000,
  seed: 1,
};

async function streamRun(context, url, threads) {
  const page = await context.newPage();
  const spec = { ...STREAM_SPEC, threads };
  await page.goto(`${url}#/experiment?spec=${encodeURIComponent(JSON.stringify(spec))}`);
  await page.waitForSelector('[data-testid=experiment][data-engine=threads][data-state=idle]', {
    timeout: 30_000,
  });
  await page.getByTestId('run').click();
  await page.waitForSelector('[data-testid=experiment][data-state=running]');
  await page.waitForFunction(
    () => Number(document.querySelector('[data-testid=experiment]').dataset.eventsRead) > 0,
  );
  // Record frame gaps over a window in the middle of the run.
  const sample = await page.evaluate(async () => {
    const panel = document.querySelector('[data-testid=experiment]');
    const events0 = Number(panel.dataset.eventsRead);
    const t0 = performance.now();
    const gaps = [];
    let last = t0;
    await new Promise((done) => {
      const tick = (t) => {
        gaps.push(t - last);
        last = t;
        if (t - t0 < 3000 && panel.dataset.state === 'running') requestAnimationFrame(tick);
        else done();
      };
      requestAnimationFrame(tick);
    });
    const seconds = (performance.now() - t0) / 1000;
    return {
      gaps: gaps.slice(1),
      eventsPerSec: (Number(panel.dataset.eventsRead) - events0) / seconds,
      seconds,
    };
  });
  const dropped = await page.locator('.notice', { hasText: 'events dropped' }).count();
  await page
    .getByTestId('stop')
    .click()
    .catch(() => {});
  await page.close();
  return { ...sample, droppedNotice: dropped > 0 };
}

async function interactiveMs(context, url) {
  const page = await context.newPage();
  await page.goto(`${url}#/lessons/pipelines-and-bubbles`);
  await page.waitForSelector(
    '[data-testid=experiment][data-state=idle] [data-testid=run]:not([disabled])',
  );
  const ms = await page.evaluate(() => performance.now());
  await page.close();
  return ms;
}

/** The three measurements of one repeat, in an order rotated by the repeat (bench/lib/rounds.mjs). */
function measurements(context, url) {
  return [
    ...THREAD_COUNTS.map(
      (threads) => async (out) =>
        out.streams.get(threads).push(await streamRun(context, url, threads)),
    ),
    async (out) => out.interactive.push(await interactiveMs(context, url)),
  ];
}

function streamResult(threads, samples) {
  const p95s = samples.map((s) => percentile(s.gaps, 0.95));
  return {
    bench: 'ui',
    target: 'wasm-chromium',
    key: `frame-time/threads-${threads}`,
    runtime: 'work-stealing',
    variant: threads <= CORES ? 'frame-time-while-streaming' : 'frame-time-oversubscribed',
    threads,
    cores: CORES,
    tokens: STREAM_SPEC.tokens,
    stages: STREAM_SPEC.stages.length,
    stage_us: STREAM_SPEC.stages.map((s) => s.service.us),
    telemetry: true,
    ...spread('p95_frame_ms', p95s),
    max_frame_ms: median(samples.map((s) => Math.max(...s.gaps))),
    ...spread(
      'events_per_s',
      samples.map((s) => s.eventsPerSec),
    ),
    dropped_notice_runs: samples.filter((s) => s.droppedNotice).length,
    repeats: samples.length,
  };
}

async function main() {
  const { repeats } = parseFlags('npm run bench:ui --', FLAGS);
  run('node', ['scripts/build.mjs']); // the page as the code is now (Ninja and Vite redo only changes)
  const server = await serveStatic({ root: join(repoRoot, 'dist'), isolationHeaders: true });
  const browser = await launchBrowser();
  const load = loadTracker();
  /** threads → one sample per repeat; repeats interleave the measurements (same machine state). */
  const out = { streams: new Map(THREAD_COUNTS.map((t) => [t, []])), interactive: [] };
  try {
    await interactiveMs(browser.context, server.url); // warm the HTTP cache and the wasm compile
    for (let r = 0; r < repeats; r++) {
      for (const measure of rotate(measurements(browser.context, server.url), r))
        await measure(out);
      load.sample();
    }
  } finally {
    await browser.close();
    await server.close();
  }
  const results = [
    ...THREAD_COUNTS.map((t) => streamResult(t, out.streams.get(t))),
    {
      bench: 'ui',
      target: 'wasm-chromium',
      key: 'lesson-interactive/pipelines-and-bubbles',
      variant: 'lesson-interactive',
      lesson: 'pipelines-and-bubbles',
      ...spread('interactive_ms', out.interactive),
      repeats,
    },
  ];
  writeReport('ui-chromium', { machine: machineBlock(load), results, ratios: [] });
  const range = (r, k, f) => `${f(r[k])} (${f(r[`${k}_min`])}..${f(r[`${k}_max`])})`;
  const ms = (x) => x.toFixed(1);
  const kilo = (x) => `${Math.round(x / 1000)}k`;
  console.log('\nUI benchmark (median of %d; min..max)', repeats);
  for (const r of results.slice(0, -1)) {
    const goal = r.threads <= CORES ? ' — target ≤ 20 ms at ≥ 200k events/s' : ' (reported only)';
    console.log(
      `  ${r.threads} threads on ${CORES} cores: frame p95 ${range(r, 'p95_frame_ms', ms)} ms at ${range(r, 'events_per_s', kilo)} events/s${goal}`,
    );
  }
  const last = results.at(-1);
  console.log(
    `  lesson interactive: ${range(last, 'interactive_ms', Math.round)} ms — target ≤ 1500 ms`,
  );
}

runMain('bench:ui', main);
