// @vitest-environment happy-dom
// What pages do with their URL, in a DOM (page.tsx): an unknown route or lesson names itself and
// links every page (embedded links stay embedded); a hash typed on the same lesson or presenter
// route takes effect at once, mid-run too; a claim checked at the defaults says so once a control
// leaves them; the engine badge says why a setting runs on the twin; lesson 3's chart has values
// at the npTh the URL sets. These ran in Chromium before (lessons, presenter, packing and
// balancing e2e files), each a page load.
import { afterEach, expect, test } from 'vitest';
import { lessonFile } from '../../e2e/lessonHelpers';
import { openPage, until, type ShownPage } from './page';

const LESSON_SLUGS = ['pipelines-and-bubbles', 'work-stealing-and-tokens', 'ends-of-the-pipeline'];

let page: ShownPage | null = null;
afterEach(async () => {
  await page?.close();
  page = null;
});

const hrefs = (p: ShownPage, selector: string) =>
  [...p.root.querySelectorAll(selector)].map((a) => a.getAttribute('href') ?? '');

test('an unknown lesson says so and links every lesson; embedded, every link stays embedded', async () => {
  page = await openPage('#/lessons/no-such-lesson');
  expect(page.alerts().join('\n')).toContain('No such page: #/lessons/no-such-lesson');
  for (const slug of LESSON_SLUGS)
    expect(hrefs(page, 'main a').filter((h) => h === `#/lessons/${slug}`)).toHaveLength(1);
  await page.close();
  // Embedded (a course page's frame): its links and the start page's keep the frame embedded.
  for (const hash of ['#/lessons/no-such-lesson?embed=1', '#/?embed=1']) {
    page = await openPage(hash);
    page.testId('embed-bar');
    expect(page.root.querySelector('header.top')).toBeNull();
    const links = hrefs(page, 'main a[href^="#/"]');
    expect(links.length, hash).toBeGreaterThan(LESSON_SLUGS.length);
    for (const href of links) expect(href, hash).toMatch(/[?&]embed=1$/);
    await page.close();
  }
  page = null;
});

test('a query typed on the same lesson route takes effect at once, mid-run too', async () => {
  const slug = 'pipelines-and-bubbles';
  page = await openPage(`#/lessons/${slug}`);
  const queue = () => page!.control('queue');
  expect(queue().value).toBe(String(lessonFile(slug).experiment.queue.capacity));
  await page.typeHash(`#/lessons/${slug}?queue=8`);
  expect(queue().value).toBe('8');
  // The slider moves the URL (replaceState, no hashchange); typing queue=8 again goes back.
  await page.setValue(queue(), '9');
  expect(location.hash).toContain('queue=9');
  await page.typeHash(`#/lessons/${slug}?queue=8`);
  expect(queue().value).toBe('8');
  // Mid-run: the page starts afresh, idle on the new values, as after navigating away.
  page.testId('run').click();
  // (The twin starts at a coming frame; a loaded machine may take seconds to give it one.)
  await until(() => page!.testId('experiment').dataset.state === 'running', 'the run started');
  await page.typeHash(`#/lessons/${slug}?queue=2`);
  await until(() => page!.testId('experiment').dataset.state === 'idle', 'the page afresh');
  expect(queue().value).toBe('2');
  await page.typeHash(`#/lessons/${slug}?queue=0`);
  expect(page.alerts().join('\n')).toContain('queue=0 is out of range (allowed 1..64)');
});

test('a step typed into the URL on the same presenter route is shown at once', async () => {
  const slug = 'pipelines-and-bubbles';
  page = await openPage(`#/present/${slug}`);
  const present = () => page!.testId('present');
  const last = present().dataset.steps!;
  expect(Number(last)).toBeGreaterThan(1);
  expect(present().dataset.step).toBe('1');
  await page.typeHash(`#/present/${slug}?step=${last}`);
  expect(present().dataset.step).toBe(last);
});

test('a sentence checked at the defaults says so once the controls leave them', async () => {
  page = await openPage('#/lessons/pipelines-and-bubbles');
  const claims = () => page!.root.querySelectorAll('[data-testid=claim]');
  const other = () => page!.root.querySelectorAll('[data-testid=claim][data-settings=other]');
  expect(claims().length).toBeGreaterThan(3);
  expect(other()).toHaveLength(0);
  // A queue of 1: "extract is busy nearly all the time" was checked at the defaults (queue 4).
  await page.setValue(page.control('queue'), '1');
  expect(other().length).toBeGreaterThan(0);
  expect(other()[0].querySelector('.claim-mark')?.textContent).toBe('✓ at the defaults');
  // Sentences that name their own settings ("With 3 threads on extract, …") keep their mark.
  expect(other().length).toBeLessThan(claims().length);
});

test('on an isolated page, settings the threads engine cannot run go to the twin, saying why', async () => {
  // Packing onto more cores than the visitor has (2 here).
  page = await openPage('#/lessons/thread-packing?threads=5&cores=4', { isolated: true, cores: 2 });
  expect(page.testId('experiment').dataset.engine).toBe('simulation');
  expect(page.root.querySelector('.engine-badge')?.textContent).toContain(
    'packing onto 4 cores needs 4 cores of your own and you have 2',
  );
  await page.close();
  // More items out over unbounded queues than the threads engine holds.
  const lesson3 = '#/lessons/balancing-a-static-pipeline';
  page = await openPage(`${lesson3}?layout=dedup5&queue=unbounded&items=100000`, {
    isolated: true,
    cores: 2,
  });
  expect(page.testId('experiment').dataset.engine).toBe('simulation');
  expect(page.root.querySelector('.engine-badge')?.textContent).toContain(
    '800000 items out over unbounded queues could all wait in memory at once, more than the threads engine holds (500000)',
  );
  await page.close();
  // The same lesson within bounds runs on threads; npTh = 7 over dedup's three parallel stages
  // splits 3, 2, 2 with no message.
  page = await openPage(`${lesson3}?layout=dedup5&npTh=7`, { isolated: true, cores: 4 });
  expect(page.testId('experiment').dataset.engine).toBe('threads');
  expect(page.alerts()).toEqual([]);
});

test("dedup unbounded: the time chart's Case 2 curves have a value at the npTh set now (4)", async () => {
  page = await openPage(
    '#/lessons/balancing-a-static-pipeline?layout=dedup5&queue=unbounded&npTh=4',
  );
  const table = page.testId('layout-chart').querySelector('details.chart-data table')!;
  const rows = [...table.querySelectorAll('tbody tr')];
  const xs = rows.map((r) => Number(r.querySelector('th')?.textContent));
  // 4, then the multiples of dedup's 3 parallel stages (npTh starts at 4).
  expect(xs.slice(0, 3)).toEqual([4, 6, 9]);
  const at4 = [...rows[0].querySelectorAll('td')].map((td) => td.textContent);
  expect(at4.length).toBeGreaterThan(0);
  expect(at4.every((v) => Number(v) > 0)).toBe(true);
});
