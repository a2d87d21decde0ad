// The Little's-law lesson (lessons/08-how-big-must-a-queue-be.md, one markdown file and nothing
// else) in real Chromium. On real threads: a run finishes with every item out, and the `law` block
// counts L, W and λ·W from each run's own telemetry, measured, with L over λ·W near 1 on every
// row. On the twin (a page that is not isolated): the tokens block runs its work-stealing sweep
// simulated, every point saying so.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openHarness, pageErrors, type Harness } from './harness';
import { block, lessonFile, openLesson, runBlock, runToDone } from './lessonHelpers';

const SLUG = 'how-big-must-a-queue-be';
const lesson = lessonFile(SLUG);
const valuesOf = (id: string) => lesson.measure.find((b) => b.id === id)!.values;
/** The index of the series whose quantity is `of` in block `id` (its key is s<index>). */
const seriesKey = (id: string, of: string) =>
  `s${lesson.measure.find((b) => b.id === id)!.series.findIndex((s) => s.of.text === of && !s.over)}`;

/** Each row's cell of one series in a block's table: the value of `over`, its number, its kind. */
async function column(page: Awaited<ReturnType<typeof openLesson>>, id: string, key: string) {
  return block(page, id)
    .locator(`tr[data-value] td[data-series=${key}]`)
    .evaluateAll((tds) =>
      tds.map((td) => ({
        at: td.closest('tr')!.getAttribute('data-value'),
        y: Number(td.getAttribute('data-value')),
        kind: td.getAttribute('data-kind'),
      })),
    );
}

describe('on real threads', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await openHarness({ isolationHeaders: true });
  });
  afterAll(() => h.close());

  test("a run ends with every item out; L, W and λ·W come from the runs' telemetry and agree", async () => {
    const page = await openLesson(h, SLUG, 'threads');
    await runToDone(page);
    const [done, items] = (await page.getByTestId('completed').textContent())!
      .split('/')
      .map(Number);
    expect(done).toBe(items);

    await runBlock(page, 'law');
    const L = await column(page, 'law', seriesKey('law', 'measured.in-flight'));
    const lw = await column(page, 'law', seriesKey('law', 'measured.lambda-times-w'));
    const W = await column(page, 'law', seriesKey('law', 'measured.time-in-system'));
    expect(L.map((c) => Number(c.at))).toEqual(valuesOf('law'));
    for (const [i, { at: queue, y: l, kind }] of L.entries()) {
      expect(kind, `queue ${queue}`).toBe('measured');
      expect(l, `queue ${queue}`).toBeGreaterThan(0);
      // Little's law over the steady window: a wrong unit or a count of the wrong events would
      // be off by far more than the window's edges (a few percent).
      expect(l / lw[i].y, `queue ${queue}`).toBeGreaterThan(0.85);
      expect(l / lw[i].y, `queue ${queue}`).toBeLessThan(1.15);
      // Every stay is at least read's 0.5 ms plus a draw of work's and write's services.
      expect(W[i].y, `queue ${queue}`).toBeGreaterThan(0.5);
    }
    // Longer queues hold more items for longer (the fast read stage keeps them full).
    expect(L.at(-1)!.y).toBeGreaterThan(L[0].y);
    expect(W.at(-1)!.y).toBeGreaterThan(W[0].y);
    await h.screenshot(page, `lesson-${SLUG}-law`);
    expect(pageErrors(page)).toEqual([]);
  });
});

describe('on the twin (not cross-origin isolated)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await openHarness({ isolationHeaders: false });
  });
  afterAll(() => h.close());

  test('the tokens sweep runs on the twin: every point says simulated, none measured', async () => {
    const page = await openLesson(h, SLUG, 'simulation');
    await runToDone(page);
    await runBlock(page, 'tokens');
    const marks = await block(page, 'tokens')
      .locator('.dot[data-kind]')
      .evaluateAll((ds) => ds.map((d) => d.getAttribute('data-kind')));
    // Two run series (throughput, items inside) at each token count, all on the twin.
    expect(marks.length).toBeGreaterThanOrEqual(2 * valuesOf('tokens').length);
    expect(new Set(marks)).toEqual(new Set(['simulated']));
    expect(await block(page, 'tokens').locator('[data-kind=measured]').count()).toBe(0);
    await h.screenshot(page, `lesson-${SLUG}-tokens-simulated`);
    expect(pageErrors(page)).toEqual([]);
  });
});
