// ::measure{id=…} — one measurement block of the lesson's front matter (src/lessons/measureBlocks.ts)
// as a chart or a table: its series measured on the visitor's threads (the twin where the page may
// not use them), simulated on the twin, modelled; run as one plan on the page's run planner (its
// progress, its Stop; a stopped plan keeps its finished points). Each point and cell says where it
// came from, the runs are shown at the settings they ran at, and the measured values the block
// reports go to the lesson's paper rows.
import { Fragment, useContext, useMemo, useState } from 'react';
import { visitorCores } from '../../engine/isolation';
import { dataKindOf } from '../../engine/pipeline/pipelineRun';
import { bracket } from '../../lessons/claims';
import type { ControlValues } from '../../lessons/controls';
import { blockAtCores, type MeasureBlock as Block } from '../../lessons/measureBlocks';
import { formatInUnit } from '../../views/format';
import { ModelChart } from '../../views/ModelChart';
import { SeriesChart } from '../../views/SeriesChart';
import { CHART_WIDTH_PX } from '../lesson/components/layout';
import { useLesson } from '../lesson/lessonContext';
import { useStageSweep } from '../lesson/useStageSweep';
import { PlanProgressLine } from '../plan/PlanProgressLine';
import { usePlan } from '../plan/usePlan';
import { cellsOf, chartsOf, reportValue, type Cell } from './blockView';
import { MeasureSlot } from './measureSlot';
import { planBlock, valuesOf, type BlockStep, type BlockValue } from './planBlock';

/** Re-exported for code that imported it from here. */
export { MeasureSlot };

export function MeasureBlock() {
  const id = useContext(MeasureSlot);
  const { lesson } = useLesson();
  // A block written in the visitor's cores (`C+1`) runs at theirs.
  const blocks = useMemo(
    () =>
      lesson.measure
        .filter((b) => id === null || b.id === id)
        .map((b) => blockAtCores(b, visitorCores(), lesson)),
    [lesson, id],
  );
  return (
    <>
      {blocks.map((b) => (
        <OneBlock key={b.id} block={b} />
      ))}
    </>
  );
}

/** The runs of the newest plan: the values they ran at, how many ran where, their numbers. */
interface Ran {
  values: ControlValues;
  measured: number;
  simulated: number;
  results: BlockValue[];
}

function OneBlock({ block }: { block: Block }) {
  const { lesson, values, engineFor, engine, planner, reportMeasured } = useLesson();
  const plan = usePlan(planner);
  const [ran, setRan] = useState<Ran | null>(null);
  // The numbers are shown at the settings the runs had (the model's too), not at the controls'
  // settings since: every number true at the settings it names.
  const shownAt = ran?.values ?? values;
  const cells = useMemo(
    () => cellsOf(lesson, block, shownAt, ran?.results ?? []),
    [lesson, block, shownAt, ran],
  );

  const start = () => {
    const steps = planBlock(lesson, block, {
      values,
      engineOf: (s) => engineFor(s).engine,
      cores: visitorCores(),
    });
    const measured = steps.filter((s) => s.engine === 'threads').length;
    let got: Ran = { values, measured, simulated: steps.length - measured, results: [] };
    setRan(got);
    plan.start<BlockStep>({
      label: block.title,
      steps,
      onResult: (result, _i, step) => {
        got = { ...got, results: [...got.results, ...valuesOf(step, result)] };
        setRan(got);
        for (const [row, value] of Object.entries(reported(block, got.results)))
          reportMeasured(row, value);
      },
    });
  };

  // The presenter's `s` runs the block while it is on the stage.
  useStageSweep(() => plan.running || start());

  const moved = ran !== null && changedSettings(block, ran.values, values);
  const x =
    block.over.kind === 'control' && !(block.over.id in block.at)
      ? shownAt[block.over.id]
      : undefined;
  return (
    <section className="measure-block" data-testid="measure-block" data-block={block.id}>
      <h3 className="measure-title">{block.title}</h3>
      <div className="buttons">
        <button onClick={start} disabled={plan.running} data-testid="measure-run">
          {engine?.engine === 'threads' ? 'Measure' : 'Simulate'}
        </button>
      </div>
      <PlanProgressLine plan={plan} />
      {block.show === 'chart' ? (
        chartsOf(block, cells, typeof x === 'number' ? x : undefined).map((c) =>
          c.view === 'model' ? (
            <ModelChart key={c.unit} {...c.props} width={CHART_WIDTH_PX} height={280} />
          ) : (
            <SeriesChart
              key={c.unit}
              xLabel={c.xLabel}
              yLabel={c.yLabel}
              series={c.series}
              xScale={block.logX ? 'log2' : 'linear'}
              yScale={block.logY.includes(c.unit) ? 'log' : 'linear'}
              width={CHART_WIDTH_PX}
              testId={`${block.id}-plot`}
            />
          ),
        )
      ) : (
        <BlockTable block={block} cells={cells} />
      )}
      <ChecksumLine block={block} cells={cells} />
      <ReportedLine block={block} results={ran?.results ?? []} />
      <p className="hint" data-testid="measure-hint">
        {whereItRan(block, ran, engine?.reason ?? '')}
        {moved && (
          <>
            {' '}
            <span data-testid="measure-stale">
              These runs are at {settingsText(block, ran!.values)}; the controls have moved since:
              run again for theirs.
            </span>
          </>
        )}
      </p>
    </section>
  );
}

/** The measured values the block reports to the lesson's paper rows, by row, once measured. */
function reported(block: Block, results: BlockValue[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of block.report) {
    const of = typeof r.of === 'number' ? r.of : reportValue(block, results, r.of);
    const over = r.over ? reportValue(block, results, r.over) : 1;
    if (of !== null && over !== null && over !== 0) out[r.row] = of / over;
  }
  return out;
}

/** What the block measured for the paper rows (the rows show it beside the paper's figure). */
function ReportedLine({ block, results }: { block: Block; results: BlockValue[] }) {
  const { lesson } = useLesson();
  const values = Object.entries(reported(block, results));
  if (values.length === 0) return null;
  return (
    <p className="hint measured" data-testid="measure-reports">
      Measured here, for the papers&apos; rows:{' '}
      {values
        .map(
          ([row, v]) =>
            `${row} ${formatInUnit(v, lesson.paper.find((p) => p.id === row)?.unit ?? '')}`,
        )
        .join(', ')}
      .
    </p>
  );
}

/** The controls a block's runs depend on (not its own `at` and `over`) that differ. */
function changedSettings(block: Block, a: ControlValues, b: ControlValues): boolean {
  return Object.keys({ ...a, ...b }).some(
    (k) => k !== block.over.id && !(k in block.at) && a[k] !== b[k],
  );
}

const settingsText = (block: Block, values: ControlValues) =>
  bracket(
    Object.fromEntries(
      Object.entries(values).filter(([k]) => k !== block.over.id && !(k in block.at)),
    ),
  ).slice(1, -1) || 'the defaults';

function whereItRan(block: Block, ran: Ran | null, reason: string): string {
  const n = block.items?.toLocaleString('en-US');
  const items =
    block.measuredItems !== null
      ? ` ${n ? `The twin's runs: ${n} items; m` : 'M'}easured points are sized from short trial runs on your threads to about a second each.`
      : n
        ? ` ${n} items a run.`
        : '';
  if (!ran) {
    const what = block.series.some((s) => s.of.source === 'measured')
      ? 'Measures on your threads where this page may use them (else on the twin), the twin beside;'
      : 'Runs on the twin;';
    return `${what} each point says which.${items}`;
  }
  const runs = (n: number) => `${n} run${n === 1 ? '' : 's'}`;
  if (ran.measured === 0)
    return `All ${runs(ran.simulated)} on the twin (${reason || 'no real threads here'}): simulated.${items}`;
  return `${runs(ran.measured)} on your threads (measured), ${runs(ran.simulated)} on the twin (simulated).${items}`;
}

/** A value as the table's first column shows it: `3 (C+1)` where it was written in the cores. */
function valueText(block: Block, at: number): string {
  const v = String(block.values[at]);
  const written = block.perCores?.written?.[at];
  return written && written !== v ? `${v} (${written})` : v;
}

function cellText(c: Cell | null, unit: string): string {
  if (!c) return '…';
  if (c.checksum !== undefined) return c.checksum ? c.checksum.checksum : '—';
  return formatInUnit(c.y, unit);
}

function BlockTable({ block, cells }: { block: Block; cells: Record<string, Array<Cell | null>> }) {
  return (
    <table className="paper-table run-table measure-table">
      <thead>
        <tr>
          <th>{block.over.label}</th>
          {block.series.map((s) => (
            <th key={s.key}>{s.label}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {block.values.map((v, at) => {
          const run = block.series
            .map((s) => cells[s.key][at])
            .filter((c): c is Cell => c !== null && c.source !== null);
          const kind =
            run.length === 0
              ? undefined
              : run.some((c) => c.kind === 'measured')
                ? 'measured'
                : 'simulated';
          return (
            <tr key={String(v)} data-value={String(v)} data-kind={kind}>
              <td>{valueText(block, at)}</td>
              {block.series.map((s) => {
                const c = cells[s.key][at];
                return (
                  <td
                    key={s.key}
                    className={`num ${c?.kind ?? ''}`}
                    data-series={s.key}
                    data-kind={c?.kind}
                    data-value={c && c.checksum === undefined ? c.y : undefined}
                  >
                    {cellText(c, s.unit)}
                  </td>
                );
              })}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** A block with a checksum series: whether every run wrote the same text (real threads only: the
 * twin writes none). */
function ChecksumLine({
  block,
  cells,
}: {
  block: Block;
  cells: Record<string, Array<Cell | null>>;
}) {
  const series = block.series.find((s) => s.unit === 'checksum');
  if (!series) return null;
  const all = cells[series.key];
  if (all.some((c) => c === null)) return null;
  const got = all as Cell[];
  const sums = got.map((c) => c.checksum);
  if (sums.some((s) => !s))
    return (
      <p className="hint" data-testid="output-checksum" data-kind={dataKindOf('simulation')}>
        The twin writes no text, so there is no checksum to compare: the order is checked on real
        threads only{got.every((c) => c.kind === 'simulated') ? ' (this page simulates them)' : ''}.
      </p>
    );
  const [first, ...rest] = sums as Array<{ checksum: string; bytes: number }>;
  const last = rest.at(-1) ?? first;
  const match = rest.every((s) => s.checksum === first.checksum && s.bytes === first.bytes);
  return (
    <p
      className={`checksum ${match ? 'match' : 'mismatch'}`}
      data-testid="output-checksum"
      data-kind="measured"
      data-match={match}
      data-checksum={last.checksum}
      data-first-checksum={first.checksum}
    >
      <span className="tick" aria-hidden>
        {match ? '✓' : '✗'}
      </span>{' '}
      {block.values.map((v, i) => (
        <Fragment key={String(v)}>
          {i > 0 && (i === block.values.length - 1 ? ' and ' : ', ')}
          {String(v)}
        </Fragment>
      ))}{' '}
      wrote{' '}
      {match
        ? `the same ${first.bytes.toLocaleString('en-US')} bytes, checksum `
        : 'different texts: '}
      <code>{match ? first.checksum : sums.map((s) => s!.checksum).join(' / ')}</code>
      {match ? ': the same text, in the same order.' : '.'}
    </p>
  );
}
