// Record and replay, exports and Share in real Chromium: a real threads run of lesson 1 is
// recorded, saved (a download), opened again through the file picker in place of a live run,
// replayed with steps back and forth landing on the same views, and exported as a trace that
// parses as trace-event JSON (plus the chart as SVG and PNG, and CSV); bad files are named, a
// dropped file opens; a shared link reproduces the page. Screenshots are kept.
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Download, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { experimentData, openHarness, pageErrors, STRICT_CSP, type Harness } from './harness';

const LESSON = '#/lessons/pipelines-and-bubbles';

let h: Harness;
/** The recording the first test saved, for the tests after it. */
let savedPath = '';
beforeAll(async () => {
  h = await openHarness({ isolationHeaders: true });
});
afterAll(() => h.close());

/** Clicks a download button: the download, its bytes and its text. */
async function downloadOf(
  page: Page,
  testId: string,
): Promise<{ d: Download; bytes: Buffer; text: string }> {
  const [d] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
  // Read through a stream: the browser is a server's (harness.ts), where a download has no path.
  const chunks: Buffer[] = [];
  for await (const chunk of await d.createReadStream()) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  return { d, bytes, text: bytes.toString('utf8') };
}

const bar = (page: Page) => page.getByTestId('replay-bar');
const cursorOf = async (page: Page) => Number(await bar(page).getAttribute('data-cursor'));
const frames = (page: Page, n = 2) =>
  page.evaluate(
    (n) =>
      new Promise((done) => {
        const next = (left: number) =>
          left ? requestAnimationFrame(() => next(left - 1)) : done(0);
        next(n);
      }),
    n,
  );
/** What the replay shows once the page has drawn it (the same two frames running): the pipeline
 * and timeline markup and the run numbers. */
async function shown(page: Page): Promise<string> {
  // Attributes sorted: React may reuse an element and add an attribute after others; an empty
  // style is left out (React leaves style="" on an element whose style it once set and cleared).
  const read = () =>
    page.evaluate(() => {
      const markup = (n: Node): string =>
        n instanceof Element
          ? `<${n.tagName} ${[...n.attributes]
              .filter((a) => !(a.name === 'style' && a.value === ''))
              .map((a) => `${a.name}=${a.value}`)
              .sort()
              .join(' ')}>${[...n.childNodes].map(markup).join('')}</>`
          : (n.textContent ?? '');
      return ['.slot-pipeline svg', '.slot-timeline svg', '[data-testid=completed]']
        .map((s) => {
          const el = document.querySelector(s);
          return el ? markup(el) : `missing ${s}`;
        })
        .join('\n');
    });
  for (let last = await read(); ;) {
    await frames(page);
    const now = await read();
    if (now === last) return now;
    last = now;
  }
}
/** Clicks a replay button and waits until the page has drawn a frame after it. */
async function press(page: Page, testId: string, times = 1) {
  for (let i = 0; i < times; i++) await page.getByTestId(testId).click();
  await frames(page);
}

test('a real threads run is recorded, saved, opened again, replayed with step back, exported', async () => {
  const page = await h.page();
  // The lightest stages: the run takes about a second, a few on a loaded machine.
  await page.goto(`${h.url}${LESSON}?extractThreads=2&extractUs=1000&rankUs=1000`);
  await page.waitForSelector('[data-testid=experiment][data-engine=threads][data-state=idle]');
  await page.getByTestId('record').click();
  await page.waitForSelector('[data-testid=record-panel][data-state=recording]');
  await page.waitForSelector('[data-testid=record-panel][data-state=ready]', { timeout: 40_000 });
  expect(await page.getByTestId('recording').textContent()).toMatch(
    /^Recording of a measured run: 300 of 300 items in \d+\.\d{3} s; [\d,]+ events\./,
  );
  const saved = await downloadOf(page, 'save-recording');
  expect(saved.d.suggestedFilename()).toMatch(/^pipelab-pipelines-and-bubbles-measured-.+\.json$/);
  const file = JSON.parse(saved.text);
  expect(file).toMatchObject({
    format: 'pipelab-recording',
    version: 1,
    engine: 'threads',
    endedAs: 'done',
    lesson: { slug: 'pipelines-and-bubbles', values: { extractThreads: 2, extractUs: 1000 } },
    summary: { items: 300, completed: 300 },
  });
  expect(file.origin.userAgent).toContain('Chrome');
  expect(file.events.length).toBeGreaterThan(1000);
  savedPath = join(tmpdir(), `pipelab-e2e-${process.pid}.json`);
  writeFileSync(savedPath, saved.text);
  // The finished run is the chart's measured point: the chart's exports.
  const svg = (await downloadOf(page, 'export-svg')).text;
  expect(svg).toMatch(/^<\?xml/);
  expect(svg).toContain('<title>PipeLab — Pipelines and bubbles');
  // The title is also drawn: an image viewer or a slide shows no <title>.
  expect(svg).toMatch(/<text[^>]*font-weight="bold"[^>]*>PipeLab — Pipelines and bubbles<\/text>/);
  // The measured dot's colour is written into the file, not left to the page's CSS.
  expect(svg).toMatch(/<circle[^>]*class="dot measured"[^>]*fill="rgb\(35, 100, 201\)"/);
  expect(svg).not.toContain('var(--');
  const png = (await downloadOf(page, 'export-png')).bytes;
  expect(png.subarray(1, 4).toString()).toBe('PNG');
  expect(png.readUInt32BE(16)).toBe(2 * 900); // IHDR width: the chart at twice its size
  // IHDR height: the chart's, plus the heading's two lines, at twice the size.
  const chartHeight = await page.locator('svg.model-chart').first().getAttribute('height');
  expect(png.readUInt32BE(20)).toBe(2 * (Number(chartHeight) + 52));
  const chartCsv = (await downloadOf(page, 'export-chart-csv')).text.split('\r\n');
  expect(chartCsv[0]).toBe(
    'series,kind,extractThreads,items_per_s,min_items_per_s,max_items_per_s',
  );
  expect(chartCsv[1]).toMatch(/^runs,measured,2,/);

  // Replayed here and left: the page shows the finished run's numbers again, as before.
  const liveNumbers = await page.locator('.run-numbers').first().textContent();
  expect(await page.getByTestId('completed').textContent()).toBe('300 / 300');
  await page.getByTestId('replay').click();
  await bar(page).waitFor();
  await page.getByTestId('replay-exit').click();
  await expect.poll(() => bar(page).count(), { timeout: 10_000 }).toBe(0);
  expect(await experimentData(page)).toMatchObject({ state: 'done', engine: 'threads' });
  expect(await page.locator('.run-numbers').first().textContent()).toBe(liveNumbers);
  expect(await page.getByTestId('throughput').getAttribute('data-kind')).toBe('measured');
  // Controls moved after the run: the panel says its numbers are the run's settings', not these.
  const rank = page.locator('[data-control=rankThreads]');
  await rank.press('ArrowRight');
  await expect
    .poll(() => page.getByTestId('settings-moved').textContent())
    .toContain('since this run');
  await rank.press('ArrowLeft');
  await expect.poll(() => page.getByTestId('settings-moved').count()).toBe(0);
  // A control moved during a replay ends it: the replay's views never sit beside other settings.
  await page.getByTestId('replay').click();
  await bar(page).waitFor();
  await rank.press('ArrowRight');
  await expect.poll(() => bar(page).count(), { timeout: 10_000 }).toBe(0);
  expect(await page.getByTestId('settings-moved').count()).toBe(1);
  await rank.press('ArrowLeft');

  // A fresh page, a live run in flight: opening the file replaces it.
  const replay = await h.page();
  await replay.goto(`${h.url}${LESSON}`);
  await replay.waitForSelector('[data-testid=experiment][data-engine=threads][data-state=idle]');
  await replay.getByTestId('run').click();
  await replay.waitForSelector('[data-testid=experiment][data-state=running]');
  const [chooser] = await Promise.all([
    replay.waitForEvent('filechooser'),
    replay.getByTestId('open-recording').click(),
  ]);
  await chooser.setFiles(savedPath);
  await replay.waitForSelector('[data-testid=replay-bar], [data-testid=replay-notice]');
  expect(await replay.locator('[data-testid=replay-notice]').allTextContents()).toEqual([]);
  expect(await replay.getByTestId('replay-label').textContent()).toMatch(
    /^Replay of a measured run — recorded in Chrome \d+ with \d+ cores?, \d{4}-\d\d-\d\d \d\d:\d\d UTC\.$/,
  );
  expect(await experimentData(replay)).toMatchObject({ replay: 'true', engine: 'threads' });
  expect(await replay.locator('[data-control=extractThreads]').inputValue()).toBe('2');
  expect(await replay.locator('[data-control=extractUs]').inputValue()).toBe('1000');
  expect(await replay.getByTestId('throughput').getAttribute('data-kind')).toBe('measured');
  // Opened for a talk, it waits at the start; the live run no longer moves the numbers.
  expect(await bar(replay).getAttribute('data-state')).toBe('paused');
  expect(await cursorOf(replay)).toBe(0);
  const before = await shown(replay);
  await replay.waitForTimeout(600);
  expect(await shown(replay)).toBe(before);

  await replay.getByTestId('replay-speed').selectOption('4');
  await press(replay, 'replay-play');
  await expect
    .poll(() => cursorOf(replay), { timeout: 20_000 })
    .toBeGreaterThan(file.events.length / 4);
  await press(replay, 'replay-pause');
  await expect
    .poll(() => replay.locator('.slot-timeline [data-kind=measured]').count())
    .toBeGreaterThan(0);
  expect(await replay.getByTestId('paused-label').count()).toBe(0);
  // Land on an event, then five forward and five back: the same views as before.
  await press(replay, 'replay-back-event');
  await press(replay, 'replay-forward-event');
  const at = await cursorOf(replay);
  const there = await shown(replay);
  await press(replay, 'replay-forward-event', 5);
  expect(await cursorOf(replay)).toBe(at + 5);
  await press(replay, 'replay-back-event', 5);
  expect(await cursorOf(replay)).toBe(at);
  expect(await shown(replay)).toBe(there);
  // Item steps: the next two items out and back one.
  await press(replay, 'replay-forward-item');
  const firstItem = await cursorOf(replay);
  const firstView = await shown(replay);
  await press(replay, 'replay-forward-item');
  expect(await cursorOf(replay)).toBeGreaterThan(firstItem);
  await press(replay, 'replay-back-item');
  expect(await cursorOf(replay)).toBe(firstItem);
  expect(await shown(replay)).toBe(firstView);
  // The scrubber seeks (back here) to a run time.
  const durationUs = file.durationUs;
  await replay.getByTestId('replay-scrubber').fill(String(durationUs / 5));
  await expect
    .poll(async () => Number(await bar(replay).getAttribute('data-clock-us')), { timeout: 10_000 })
    .toBeCloseTo(durationUs / 5, -2);
  expect(await cursorOf(replay)).toBeLessThan(at);
  await h.screenshot(replay, 'replay-pipelines-and-bubbles');

  // Exports of the recording: the trace as trace-event JSON, the run's counters.
  const trace = JSON.parse((await downloadOf(replay, 'export-trace')).text);
  expect(Array.isArray(trace.traceEvents)).toBe(true);
  const threadNames = trace.traceEvents.filter((e: { name: string }) => e.name === 'thread_name');
  expect(threadNames).toHaveLength(file.workers);
  const slices = trace.traceEvents.filter((e: { ph: string }) => e.ph === 'X');
  for (const s of slices) {
    expect(Number.isInteger(s.pid) && Number.isInteger(s.tid)).toBe(true);
    expect(s.ts).toBeGreaterThanOrEqual(0);
    expect(s.dur).toBeGreaterThan(0);
  }
  const names = new Set(slices.map((s: { name: string }) => s.name));
  for (const stage of ['input', 'extract', 'rank', 'output']) expect(names).toContain(stage);
  const csv = (await downloadOf(replay, 'export-run-csv')).text.split('\r\n');
  expect(csv[0]).toBe(
    'time_us,stage,stage_name,items_in,items_out,queue_occupancy,busy_us,idle_us,blocked_us,dropped_events,kind',
  );
  expect(csv[1]).toMatch(/,measured$/);

  await replay.getByTestId('replay-exit').click();
  await expect.poll(() => bar(replay).count(), { timeout: 10_000 }).toBe(0);
  expect(await experimentData(replay)).toMatchObject({ state: 'idle' });
  expect(pageErrors(page)).toEqual([]);
  expect(pageErrors(replay)).toEqual([]);
});

test('bad files are named, another lesson’s recording is sent there, a dropped file opens', async () => {
  const page = await h.page();
  await page.goto(`${h.url}${LESSON}`);
  await page.waitForSelector('[data-testid=experiment][data-state=idle]');
  /** Opens a file through the picker; the notice it leaves. */
  const open = async (name: string, text: string) => {
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      page.getByTestId('open-recording').click(),
    ]);
    await chooser.setFiles({ name, mimeType: 'application/json', buffer: Buffer.from(text) });
    const notice = page.getByTestId('replay-notice');
    await expect.poll(() => notice.textContent()).toContain(`${name}: `);
    return notice.textContent();
  };
  const good = readFileSync(savedPath, 'utf8');
  const json = JSON.parse(good);
  expect(await open('notes.txt', 'hello')).toContain(
    'notes.txt: This file is not a PipeLab recording: it is not JSON',
  );
  expect(await open('future.json', JSON.stringify({ ...json, version: 2 }))).toBe(
    'future.json: This recording is version 2; this build of PipeLab reads version 1.',
  );
  expect(await open('cut.json', good.slice(0, good.length / 2))).toContain(
    'cut.json: This PipeLab recording is cut short or damaged',
  );
  json.events[5][1] = 99;
  expect(await open('edited.json', JSON.stringify(json))).toContain(
    'edited.json: This recording is damaged or was edited by hand: events[5][1]: 99 is out of range',
  );
  expect(await bar(page).count()).toBe(0);
  await h.screenshot(page, 'replay-bad-file');

  // Dropped anywhere on the page.
  const dropped = await page.evaluateHandle((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'talk.json', { type: 'application/json' }));
    return dt;
  }, good);
  await page.dispatchEvent('main', 'dragenter', { dataTransfer: dropped });
  await page.getByTestId('drop-target').waitFor();
  await page.dispatchEvent('main', 'drop', { dataTransfer: dropped });
  await bar(page).waitFor();
  expect(await page.getByTestId('drop-target').count()).toBe(0);

  // Another lesson refuses it and links to its own.
  const other = await h.page();
  await other.goto(`${h.url}#/lessons/work-stealing-and-tokens`);
  await other.waitForSelector('[data-testid=experiment][data-state=idle]');
  const [chooser] = await Promise.all([
    other.waitForEvent('filechooser'),
    other.getByTestId('open-recording').click(),
  ]);
  await chooser.setFiles(savedPath);
  const notice = other.getByTestId('replay-notice');
  await expect
    .poll(() => notice.textContent())
    .toContain('This recording is of the page "pipelines-and-bubbles", not this one');
  expect(await notice.locator('a').getAttribute('href')).toBe(LESSON);
  expect(pageErrors(page)).toEqual([]);
  expect(pageErrors(other)).toEqual([]);
});

test('in presenter mode a dropped recording replays on the one screen, and Share keeps the step', async () => {
  const page = await h.page();
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`${h.url}#/present/pipelines-and-bubbles?step=2`);
  await page.getByTestId('present').waitFor();
  const dropped = await page.evaluateHandle(
    (text) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], 'talk.json', { type: 'application/json' }));
      return dt;
    },
    readFileSync(savedPath, 'utf8'),
  );
  await page.dispatchEvent('main', 'drop', { dataTransfer: dropped });
  await bar(page).waitFor();
  await press(page, 'replay-forward-item', 3);
  expect(await cursorOf(page)).toBeGreaterThan(0);
  // The bar takes the screen's last row: nothing scrolls, the bar is whole on screen.
  const fit = await page.evaluate(() => {
    const r = document.querySelector('[data-testid=replay-bar]')!.getBoundingClientRect();
    return { scrollHeight: document.documentElement.scrollHeight, bottom: r.bottom };
  });
  expect(fit.scrollHeight).toBeLessThanOrEqual(720);
  expect(fit.bottom).toBeLessThanOrEqual(720);
  await h.screenshot(page, 'replay-present-1280x720');
  await page.getByTestId('share').click();
  expect(await page.getByTestId('share-url').inputValue()).toBe(
    `${h.url}#/present/pipelines-and-bubbles?extractThreads=2&rankThreads=1&extractUs=1000&rankUs=1000&queue=4&step=2`,
  );
  expect(pageErrors(page)).toEqual([]);
});

test('Share copies a link that reproduces the page', async () => {
  const page = await h.page();
  await h.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: new URL(h.url).origin,
  });
  await page.goto(`${h.url}${LESSON}?engine=simulation`);
  await page.waitForSelector('[data-testid=experiment][data-engine=simulation]');
  await page.locator('[data-control=rankThreads]').fill('3');
  await page.getByTestId('share').click();
  const url = await page.getByTestId('share-url').inputValue();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
  expect(url).toBe(
    `${h.url}${LESSON}?extractThreads=1&rankThreads=3&extractUs=16000&rankUs=8000&queue=4&engine=simulation`,
  );
  const opened = await h.page();
  await opened.goto(url);
  await opened.waitForSelector('[data-testid=experiment][data-engine=simulation][data-state=idle]');
  expect(await opened.locator('[data-control=rankThreads]').inputValue()).toBe('3');
  expect(await opened.getByRole('alert').count()).toBe(0);
  expect(pageErrors(opened)).toEqual([]);
});

test('under the strict Content-Security-Policy: record, export, replay and step back, nothing blocked', async () => {
  const strict = await openHarness({
    isolationHeaders: true,
    headers: { 'Content-Security-Policy': STRICT_CSP },
  });
  try {
    const page = await strict.page();
    await page.addInitScript(() => {
      const w = window as unknown as { violations: string[] };
      w.violations = [];
      document.addEventListener('securitypolicyviolation', (e) =>
        w.violations.push(`${e.violatedDirective} ${e.blockedURI}`),
      );
    });
    // The twin, with the lightest stages: a second of simulated run.
    await page.goto(`${strict.url}${LESSON}?engine=simulation&extractUs=1000&rankUs=1000`);
    await page.waitForSelector('[data-testid=experiment][data-engine=simulation][data-state=idle]');
    await page.getByTestId('record').click();
    await page.waitForSelector('[data-testid=record-panel][data-state=ready]', { timeout: 30_000 });
    expect((await downloadOf(page, 'export-svg')).text).toContain('fill="rgb(');
    expect((await downloadOf(page, 'export-png')).bytes.subarray(1, 4).toString()).toBe('PNG');
    expect(
      JSON.parse((await downloadOf(page, 'export-trace')).text).traceEvents.length,
    ).toBeGreaterThan(0);
    await page.getByTestId('replay').click();
    await bar(page).waitFor();
    expect(await bar(page).getAttribute('data-kind')).toBe('simulated');
    expect(await page.getByTestId('replay-label').textContent()).toMatch(
      /^Replay of a simulated run/,
    );
    await press(page, 'replay-pause');
    await press(page, 'replay-back-item', 2);
    await press(page, 'replay-back-event', 2);
    expect(
      await page.evaluate(() => (window as unknown as { violations: string[] }).violations),
    ).toEqual([]);
    expect(pageErrors(page)).toEqual([]);
  } finally {
    await strict.close();
  }
});
