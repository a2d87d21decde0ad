// PaperTable: a twin row per row with a twin value (simulated), a measured row once measured (and a
// pending row before), each with the paper's and our number as plain data attributes.
import { renderToStaticMarkup } from 'react-dom/server';
import { expect, test } from 'vitest';
import { PaperTable, type PaperTableRow } from '../../../src/views/PaperTable';

const row = (p: Partial<PaperTableRow>): PaperTableRow => ({
  id: 'r',
  paper: 'Navarro et al.',
  paperTitle: 'Analytical Modeling of Pipeline Parallelism',
  where: 'Fig. 6a',
  claim: '3 stages beat 6',
  unit: 'ratio',
  paperValue: 1.25,
  twinValue: 1.31,
  twinEvidence: 'twin.time[layout=6] = 2 s / twin.time[layout=3] = 1.53 s',
  measured: true,
  verdict: { verdict: 'agrees', tolerancePercent: 5, reason: null, fitted: null, scale: 'paper' },
  ...p,
});

/** The markup with apostrophes as written (React escapes them). */
const markup = (node: Parameters<typeof renderToStaticMarkup>[0]) =>
  renderToStaticMarkup(node).replaceAll('&#x27;', "'");

const claimRows = (html: string) =>
  [...html.matchAll(/<tr ([^>]*data-testid="paper-claim"[^>]*)>/g)].map((m) =>
    Object.fromEntries([...m[1].matchAll(/([\w-]+)="([^"]*)"/g)].map((a) => [a[1], a[2]])),
  );

test('the twin row is there from the start; the measured row waits for a measurement', () => {
  const html = renderToStaticMarkup(<PaperTable rows={[row({})]} measured={{}} />);
  expect(claimRows(html)).toEqual([
    expect.objectContaining({
      'data-row': 'r',
      'data-kind': 'simulated',
      'data-paper-value': '1.25',
      'data-ours-value': '1.31',
    }),
  ]);
  expect(html).toContain('1.31×');
  expect(html).toContain('run the experiment to measure it on your cores');
});

test('a measured value becomes a measured row with its number', () => {
  const html = renderToStaticMarkup(<PaperTable rows={[row({})]} measured={{ r: 1.7 }} />);
  expect(claimRows(html).map((r) => [r['data-kind'], r['data-ours-value']])).toEqual([
    ['simulated', '1.31'],
    ['measured', '1.7'],
  ]);
  expect(html).not.toContain('run the experiment to measure it');
});

test('a measured-only row carries the claim itself; units format the numbers', () => {
  const html = renderToStaticMarkup(
    <PaperTable
      rows={[row({ twinValue: null, twinEvidence: null, unit: '%', paperValue: 33.7 })]}
      measured={{ r: 12.34 }}
    />,
  );
  expect(claimRows(html)).toHaveLength(1);
  expect(html).toContain('3 stages beat 6');
  expect(html).toContain('33.7%');
  expect(html).toContain('12.3%');
});

test('a benchmark value is its own measured row, labelled with where it was measured', () => {
  const html = renderToStaticMarkup(
    <PaperTable
      rows={[
        row({
          twinValue: null,
          twinEvidence: null,
          measured: true,
          benchValue: 4.93,
          benchTarget: 'native',
          benchEvidence: 'comm-2/batch / comm-2/vyukov-mpmc: …',
        }),
      ]}
      measured={{ r: 2.05 }}
    />,
  );
  expect(claimRows(html)).toEqual([
    expect.objectContaining({
      'data-kind': 'measured',
      'data-source': 'benchmark',
      'data-ours-value': '4.93',
    }),
    expect.objectContaining({ 'data-kind': 'measured', 'data-ours-value': '2.05' }),
  ]);
  expect(claimRows(html)[1]['data-source']).toBeUndefined();
  expect(html).toContain('(native C++), on the machine that ran it');
  expect(html).toContain('measured on your threads, at your scale');
});

test('a bound from the paper reads "> 1.00×" and says so in an attribute', () => {
  const html = renderToStaticMarkup(
    <PaperTable rows={[row({ paperValue: 1, paperBound: 'above' })]} measured={{ r: 1.4 }} />,
  );
  expect(html).toContain('&gt; 1.00×');
  expect(claimRows(html).map((r) => r['data-paper-bound'])).toEqual(['above', 'above']);
  expect(html).toContain('The paper gives no figure, only the direction.');
});

test("the claim and the paper's figure span all of ours for the row: no empty cells under them", () => {
  const html = renderToStaticMarkup(<PaperTable rows={[row({})]} measured={{}} />);
  const rows = [...html.matchAll(/<tr[^>]*data-row="r"[^>]*>([\s\S]*?)<\/tr>/g)].map((m) => m[1]);
  expect(rows).toHaveLength(2);
  expect(rows[0].match(/<td rowSpan="2"|<td rowspan="2"/gi)).toHaveLength(2);
  expect(rows[1]).not.toMatch(/colspan/i);
  expect(rows[1].match(/<td/g)).toHaveLength(2);
  expect(html).not.toMatch(/<td[^>]*><\/td>/);
});

test("each of ours carries the row's verdict; the twin its scale, the visitor's run the lesson's", () => {
  const html = markup(<PaperTable rows={[row({})]} measured={{ r: 1.7 }} />);
  expect(claimRows(html).map((r) => [r['data-kind'], r['data-verdict'], r['data-scale']])).toEqual([
    ['simulated', 'agrees', 'paper'],
    ['measured', 'agrees', 'lesson'],
  ]);
  expect(html).toContain("the twin at the paper's scale (simulated)");
  expect(html).toContain("the twin lies within 5% of the paper's figure.");
});

test.each([
  [
    { verdict: 'differs', tolerancePercent: null, reason: 'the cores are slower', fitted: null },
    'Differs:</strong> the cores are slower',
  ],
  [
    { verdict: 'fitted', tolerancePercent: null, reason: null, fitted: 'the work was set from it' },
    'Fitted,</strong> not a test: the work was set from it',
  ],
] as const)('a %o row says so under its claim', (v, words) => {
  const html = markup(
    <PaperTable rows={[row({ verdict: { ...v, scale: 'lesson' } })]} measured={{}} />,
  );
  expect(html).toContain(words);
  expect(html).toContain("the twin at the lesson's scale (simulated)");
  expect(claimRows(html)[0]['data-verdict']).toBe(v.verdict);
  expect(claimRows(html)[0]['data-scale']).toBe('lesson');
});

test("a bound row says which side ours lies on; the build's evidence is the verdict's title", () => {
  const html = markup(
    <PaperTable
      rows={[
        row({
          paperValue: 1,
          paperBound: 'above',
          verdict: {
            verdict: 'bound',
            tolerancePercent: null,
            reason: null,
            fitted: null,
            scale: 'lesson',
          },
          verdictEvidence: "x = 1.7 lies above the paper's 1",
        }),
      ]}
      measured={{}}
    />,
  );
  expect(html).toContain('Bound:</strong> the paper states a direction; the twin lies above.');
  expect(html).toContain(`title="x = 1.7 lies above the paper's 1"`);
});
