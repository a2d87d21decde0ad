// What a source paper measured beside ours, one row per claim and source of ours: the twin
// (simulated; or the models alone, for a figure the paper computed with its model) at the paper's
// scale or the lesson's, as the row declares, and, once measured, the visitor's threads at theirs
// (measured). Each row carries data-paper-value / data-ours-value as plain numbers in the row's
// unit, data-kind, and the row's verdict (data-verdict: agrees, differs, fitted, bound) and scale
// (data-scale: paper, lesson), so a reader tells a match from a gap and a fit from a prediction.
import type { ReactNode } from 'react';
import { formatInUnit } from './format';

/** How ours relates to the paper's figure (src/lessons/paperVerdict.ts checks it at build time). */
export interface PaperTableVerdict {
  verdict: 'agrees' | 'differs' | 'fitted' | 'bound';
  tolerancePercent: number | null;
  reason: string | null;
  fitted: string | null;
  /** paper: ours ran at the paper's settings; lesson: at the lesson's own. */
  scale: 'paper' | 'lesson';
}

export interface PaperTableRow {
  id: string;
  /** Who wrote it, short ("Navarro et al."), and the paper's title. */
  paper: string;
  paperTitle: string;
  /** Figure, table or section. */
  where: string;
  claim: string;
  /** ratio, s, ms, µs, items/s, M ops/s, %, count. */
  unit: string;
  paperValue: number;
  /** The paper states only a direction: ours lies above (below) its figure. */
  paperBound?: 'above' | 'below' | null;
  twinValue: number | null;
  /** How the twin's value was computed (shown as its title). */
  twinEvidence: string | null;
  /** The twin ('simulated', the default) or the models alone ('model'). */
  twinKind?: 'simulated' | 'model';
  /** Whether the lesson's views measure this row on the visitor's threads. */
  measured: boolean;
  /** Ours from a committed benchmark (measured on the machine that ran it), when the row has one. */
  benchValue?: number | null;
  /** native | wasm-node | wasm-chromium. */
  benchTarget?: string | null;
  benchEvidence?: string | null;
  /** The lesson that shows it (on the papers page). */
  lesson?: { href: string; title: string };
  verdict: PaperTableVerdict;
  /** The build's check of the verdict, with the numbers (shown as the verdict's title). */
  verdictEvidence?: string | null;
}

export interface PaperTableProps {
  rows: PaperTableRow[];
  /** Values measured here, by row id (absent until the lesson's views measured them). */
  measured: Record<string, number>;
}

export function PaperTable({ rows, measured }: PaperTableProps) {
  return (
    <table className="paper-table" data-testid="paper">
      <thead>
        <tr>
          <th>What the paper found</th>
          <th>Paper</th>
          <th>Ours</th>
          <th>Where ours comes from</th>
        </tr>
      </thead>
      <tbody>
        {rows.flatMap((r) => {
          // The claim and the paper's figure span every row of ours for it (the twin's, a
          // benchmark's, yours): one result, several sources, and no empty cells under it.
          const cells = (rowSpan: number) => (
            <>
              <td rowSpan={rowSpan}>
                {r.claim}{' '}
                <span className="paper-source" title={r.paperTitle}>
                  ({r.paper}, {r.where})
                </span>
                {r.lesson && (
                  <>
                    {' '}
                    — <a href={r.lesson.href}>{r.lesson.title}</a>
                  </>
                )}
                <VerdictLine row={r} />
              </td>
              <td
                rowSpan={rowSpan}
                className="num"
                title={r.paperBound ? `The paper gives no figure, only the direction.` : undefined}
              >
                {r.paperBound === 'above' ? '> ' : r.paperBound === 'below' ? '< ' : ''}
                {formatInUnit(r.paperValue, r.unit)}
              </td>
            </>
          );
          const out: Array<(first: ReactNode) => ReactNode> = [];
          /** One source of ours: the claim and the paper's number go on the first line only. */
          const ours = (o: {
            key: string;
            kind: 'measured' | 'simulated' | 'model';
            source?: 'benchmark';
            value: number;
            title: string | null;
            where: ReactNode;
            scale: 'paper' | 'lesson';
          }) =>
            out.push((first) => (
              <tr
                key={`${r.id}-${o.key}`}
                data-testid="paper-claim"
                data-row={r.id}
                data-verdict={r.verdict.verdict}
                data-scale={o.scale}
                data-kind={o.kind}
                data-source={o.source}
                data-paper-value={r.paperValue}
                data-paper-bound={r.paperBound ?? undefined}
                data-ours-value={o.value}
              >
                {first}
                <td className={`num ${o.kind}`} title={o.title ?? undefined}>
                  {formatInUnit(o.value, r.unit)}
                </td>
                <td>{o.where}</td>
              </tr>
            ));
          const atScale =
            r.verdict.scale === 'paper' ? "at the paper's scale" : "at the lesson's scale";
          if (r.twinValue !== null)
            ours({
              key: 'twin',
              kind: r.twinKind ?? 'simulated',
              value: r.twinValue,
              title: r.twinEvidence,
              scale: r.verdict.scale,
              where:
                r.twinKind === 'model' ? `the model ${atScale}` : `the twin ${atScale} (simulated)`,
            });
          if (r.benchValue !== null && r.benchValue !== undefined)
            ours({
              key: 'bench',
              kind: 'measured',
              source: 'benchmark',
              value: r.benchValue,
              title: r.benchEvidence ?? null,
              scale: r.verdict.scale,
              where: (
                <>
                  measured by <code>npm run bench:queues</code> ({benchPlace(r.benchTarget)}), on
                  the machine that ran it
                </>
              ),
            });
          if (r.measured) {
            const value = measured[r.id];
            if (value === undefined)
              out.push((first) => (
                <tr key={`${r.id}-measured`} data-row={r.id} className="pending">
                  {first}
                  <td className="num">—</td>
                  <td>run the experiment to measure it on your cores</td>
                </tr>
              ));
            else
              ours({
                key: 'measured',
                kind: 'measured',
                value,
                title: null,
                // Your threads run the lesson's settings on your machine, whatever the row's scale.
                scale: 'lesson',
                where: 'measured on your threads, at your scale',
              });
          }
          return out.map((row, i) => row(i === 0 ? cells(out.length) : null));
        })}
      </tbody>
    </table>
  );
}

/** The row's verdict in words, under its claim: which of ours it was checked on, and why. */
function VerdictLine({ row: r }: { row: PaperTableRow }) {
  const v = r.verdict;
  const ours =
    r.twinValue !== null
      ? r.twinKind === 'model'
        ? 'the model'
        : 'the twin'
      : r.benchValue !== null && r.benchValue !== undefined
        ? 'the benchmark'
        : 'ours';
  const text =
    v.verdict === 'agrees'
      ? `${ours} lies within ${v.tolerancePercent}% of the paper's figure.`
      : v.verdict === 'differs'
        ? v.reason
        : v.verdict === 'fitted'
          ? `not a test: ${v.fitted}`
          : `the paper states a direction; ${ours} lies ${r.paperBound ?? 'on its side'}.`;
  return (
    <span className={`paper-verdict verdict-${v.verdict}`} title={r.verdictEvidence ?? undefined}>
      <strong>{VERDICT_WORDS[v.verdict]}</strong> {text}
    </span>
  );
}

const VERDICT_WORDS = {
  agrees: 'Agrees:',
  differs: 'Differs:',
  fitted: 'Fitted,',
  bound: 'Bound:',
} as const;

/** Where a committed benchmark figure was measured, in words. */
function benchPlace(target: string | null | undefined): string {
  if (target === 'native') return 'native C++';
  if (target === 'wasm-chromium') return 'wasm in headless Chromium';
  if (target === 'wasm-node') return 'wasm under Node';
  return 'benchmark';
}
