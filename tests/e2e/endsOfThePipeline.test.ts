// The lesson on the ends of the pipeline in real Chromium. On real threads: the reorder view shows
// the real pool (never more buffers in use than it has, finished batches waiting for an earlier
// one); serial, dual-thread and two-stage write the same text (the checksums the C++ writer
// computed agree, ticked) and their measured speed-ups reach the paper rows; batch sizes and
// readers are measured. On the twin (a page that is not isolated): the same views, simulated,
// with no checksum to show. Screenshots are kept. (Bad control values: tests/unit/pages.)
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openHarness, pageErrors, type Harness } from './harness';
import {
  block,
  blockMarks,
  lessonFile,
  openLesson,
  present,
  runBlock,
  runToDone,
} from './lessonHelpers';

const SLUG = 'ends-of-the-pipeline';
const lesson = lessonFile(SLUG);
/** The lesson's measurement blocks' values: batch sizes, reader counts. */
const valuesOf = (id: string) => lesson.measure.find((b) => b.id === id)!.values;
const BATCH_SIZES = valuesOf('batch-sizes');
const MAX_READERS = valuesOf('readers').length;

describe('on real threads', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await openHarness({ isolationHeaders: true });
  });
  afterAll(() => h.close());

  test('the reorder view draws the real pool: batches wait for their turn, never more buffers than the pool', async () => {
    // Slow motion, four formatters, batches of 16: batches finish out of order often.
    const formatters = 4;
    const page = await openLesson(
      h,
      SLUG,
      'threads',
      `work=slow&formatters=${formatters}&batch=16`,
    );
    const view = page.getByTestId('reorder-view');
    const boxes = view.locator('[data-testid=buffer]');
    // The lesson's default pool: formatting threads + 2 buffers.
    const pool = formatters + 2;
    expect(await boxes.count()).toBe(pool);
    await page.getByTestId('run').click();
    await expect
      .poll(async () => Number(await view.getAttribute('data-finished-out-of-order')), {
        timeout: 30_000,
      })
      .toBeGreaterThan(0);
    // Sampled until a finished batch is seen waiting; every sample draws the whole pool, no more.
    const poolSizes = new Set<number>();
    await expect
      .poll(
        async () => {
          const states = await boxes.evaluateAll((gs) =>
            gs.map((g) => [g.getAttribute('data-state'), g.getAttribute('data-waiting')]),
          );
          poolSizes.add(states.length);
          return states.some(([s, w]) => s === 'ready' && w === 'true');
        },
        { message: 'a finished batch waiting for an earlier one', interval: 100, timeout: 10_000 },
      )
      .toBe(true);
    expect([...poolSizes]).toEqual([pool]);
    expect(await view.getAttribute('data-kind')).toBe('measured');
    await h.screenshot(page, 'lesson-ends-of-the-pipeline-reorder');
    await page.getByTestId('stop').click();
    expect(pageErrors(page)).toEqual([]);
  });

  test('serial, dual-thread and two-stage write the same text; speed-ups are measured', async () => {
    const page = await openLesson(h, SLUG, 'threads');
    await runBlock(page, 'variants', present(page, 'output-checksum'));
    const line = page.getByTestId('output-checksum');
    expect(await line.getAttribute('data-kind')).toBe('measured');
    expect(await line.getAttribute('data-match')).toBe('true');
    const checksum = await line.getAttribute('data-checksum');
    expect(checksum).toMatch(/^[0-9a-f]{16}$/);
    // The two-stage run's text (the last row) is the serial run's (the first).
    expect(await line.getAttribute('data-first-checksum')).toBe(checksum);
    expect(await line.textContent()).toMatch(/^✓/);
    const rows = block(page, 'variants').locator('tbody tr');
    expect(await rows.evaluateAll((rs) => rs.map((r) => r.getAttribute('data-kind')))).toEqual([
      'measured',
      'measured',
      'measured',
    ]);
    // The measured speed-ups reach the paper rows, beside the twin at Dempsey's scale.
    const paperRow = (id: string, kind: string) =>
      page.locator(`[data-testid=paper-claim][data-row=${id}][data-kind=${kind}]`);
    for (const id of ['dual-thread-speedup', 'two-stage-speedup']) {
      await expect.poll(() => paperRow(id, 'measured').count()).toBe(1);
      expect(
        Number(await paperRow(id, 'measured').getAttribute('data-ours-value')),
      ).toBeGreaterThan(0);
      expect(
        Number(await paperRow(id, 'simulated').getAttribute('data-ours-value')),
      ).toBeGreaterThan(1);
    }
    expect(
      Number(await paperRow('two-stage-time', 'simulated').getAttribute('data-paper-value')),
    ).toBe(lesson.paper.find((r) => r.id === 'two-stage-time')!.paperValue);
    await h.screenshot(page, 'lesson-ends-of-the-pipeline-compare');
    expect(pageErrors(page)).toEqual([]);
  });

  test('batch sizes and readers are measured on threads, the twin beside them', async () => {
    const page = await openLesson(h, SLUG, 'threads');
    // Two charts (first-item latency, throughput), a mark per batch size on each.
    await runBlock(
      page,
      'batch-sizes',
      async () => (await blockMarks(page, 'batch-sizes', 'simulated')) === 2 * BATCH_SIZES.length,
    );
    const batch = block(page, 'batch-sizes');
    const charts = batch.locator('svg.model-chart');
    expect(await charts.count()).toBe(2);
    for (let c = 0; c < 2; c++) {
      expect(await charts.nth(c).locator('.dot[data-kind=measured]').count()).toBe(
        BATCH_SIZES.length,
      );
      expect(await charts.nth(c).locator('.dot[data-kind=simulated]').count()).toBe(
        BATCH_SIZES.length,
      );
    }
    // 1..MAX_READERS readers on the twin; on threads at least up to four; one thread alone (its
    // point at every reader count, lettered apart) measured and simulated too.
    const readerDots = (kind: string) =>
      block(page, 'readers').locator(`.dot[data-kind=${kind}]`).count();
    await runBlock(page, 'readers');
    expect(await readerDots('measured')).toBeGreaterThanOrEqual(2 * 4);
    expect(await readerDots('simulated')).toBe(2 * MAX_READERS);
    await expect
      .poll(() =>
        page
          .locator('[data-testid=paper-claim][data-row=four-readers][data-kind=measured]')
          .count(),
      )
      .toBe(1);
    await h.screenshot(page, 'lesson-ends-of-the-pipeline-measured');
    expect(pageErrors(page)).toEqual([]);
  });
});

describe('not cross-origin isolated', () => {
  let plain: Harness;
  beforeAll(async () => {
    plain = await openHarness({ isolationHeaders: false });
  });
  afterAll(() => plain.close());

  test('the twin runs it: simulated pool, simulated comparison, no checksum to tick', async () => {
    const page = await openLesson(plain, SLUG, 'simulation');
    await runToDone(page);
    const view = page.getByTestId('reorder-view');
    expect(await view.getAttribute('data-kind')).toBe('simulated');
    // Every batch of the lesson's run is written once the view has caught up with the run's end
    // (on a loaded machine the page may say done a frame before the view's last redraw).
    const spec = lesson.experiment as { items: number; batchItems: number };
    const batches = Math.ceil(spec.items / spec.batchItems).toLocaleString('en-US');
    await expect.poll(() => page.getByTestId('batches-written').textContent()).toBe(batches);
    await runBlock(page, 'variants', present(page, 'output-checksum'));
    const line = page.getByTestId('output-checksum');
    expect(await line.getAttribute('data-kind')).toBe('simulated');
    expect(await line.getAttribute('data-match')).toBeNull();
    expect(await block(page, 'variants').locator('tbody tr[data-kind=simulated]').count()).toBe(3);
    // The twin's rows at the papers' scale are there; nothing claims to be measured.
    const twinRows = lesson.paper.filter((r) => r.twinValue !== null).length;
    expect(await page.locator('[data-testid=paper-claim][data-kind=simulated]').count()).toBe(
      twinRows,
    );
    expect(await page.locator('[data-kind=measured]').count()).toBe(0);
    await plain.screenshot(page, 'lesson-ends-of-the-pipeline-simulated');
    expect(pageErrors(page)).toEqual([]);
  });
});
