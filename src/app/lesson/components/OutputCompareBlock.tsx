// ::output-compare — Dempsey's three ways to write the same text (seed 002), run one after another
// on the same data: serial (one thread formats a batch, then writes it), dual-thread (one
// formatter, one writer) and two-stage (the experiment's formatters, one writer). Time,
// throughput and speed-up for each, the twin's time beside, and the order proved: the two-stage
// writer's checksum of the bytes it wrote equals the serial run's (real threads only: the twin
// writes no text). Reports the measured speed-ups for the paper rows `dual-thread-speedup` and
// `two-stage-speedup`. One plan: the twin's three runs, then the three runs on the page's engine.
import { useState } from 'react';
import type { FinishedRun } from '../../../engine/planner/measure';
import { runStepOf, type RunStep } from '../../../engine/planner/steps';
import { itemsForMs } from '../../../engine/sweep';
import { TWO_STAGE_VARIANTS, type ExperimentSpec } from '../../../spec/experimentSpec';
import { withVariant } from '../../../spec/twoStageVariants';
import { formatMs, formatRate } from '../../../views/format';
import { kindOf } from '../../../views/viewHelpers';
import { PlanProgressLine } from '../../plan/PlanProgressLine';
import { usePlan } from '../../plan/usePlan';
import { useLesson } from '../lessonContext';
import { kindShows } from '../../../runtimes';

/** Each run takes about this long on the serial variant (the slowest). */
const SERIAL_RUN_MS = 500;
const LABEL = {
  serial: 'serial: one thread formats, then writes',
  'dual-thread': 'dual-thread: one formatter, one writer',
  'two-stage': 'two-stage: formatters + the writer',
};

interface Row {
  spec: ExperimentSpec;
  run: FinishedRun | null;
  twinUs: number | null;
}

/** A run of the comparison: which row it fills, and whether it is the twin's column. */
interface RowStep extends RunStep {
  row: number;
  twin: boolean;
}

export function OutputCompareBlock() {
  const { spec, engineFor, planner, reportMeasured } = useLesson();
  const series = usePlan(planner);
  const [rows, setRows] = useState<Row[]>([]);
  if (!spec || !kindShows(spec, 'output-compare'))
    return <p className="notice">The comparison needs a two-stage-output experiment.</p>;

  const compare = () => {
    const items = itemsForMs(withVariant(spec, 'serial'), SERIAL_RUN_MS, 8 * spec.batchItems!);
    const specs = TWO_STAGE_VARIANTS.map((v) => ({ ...withVariant(spec, v), items })).reverse();
    const fresh: Row[] = specs.map((s) => ({ spec: s, run: null, twinUs: null }));
    setRows(fresh);
    const step = (s: ExperimentSpec, row: number, twin: boolean): RowStep => ({
      ...runStepOf(s.variant!, s, twin ? 'simulation' : engineFor(s).engine),
      row,
      twin,
    });
    series.start({
      label: 'Run serial, dual-thread and two-stage',
      steps: [...specs.map((s, i) => step(s, i, true)), ...specs.map((s, i) => step(s, i, false))],
      onResult: (r, _i, { row, twin }) => {
        fresh[row] = twin
          ? { ...fresh[row], twinUs: r.summary.elapsedUs }
          : { ...fresh[row], run: r };
        setRows([...fresh]);
        const [serial, dual, two] = fresh.map((x) => x.run);
        if (
          !twin &&
          row === 2 &&
          serial &&
          dual &&
          two &&
          two.source === 'threads' &&
          serial.source === 'threads'
        ) {
          reportMeasured('dual-thread-speedup', serial.summary.elapsedUs / dual.summary.elapsedUs);
          reportMeasured('two-stage-speedup', serial.summary.elapsedUs / two.summary.elapsedUs);
        }
      },
    });
  };

  const serial = rows[0]?.run ?? null;
  const two = rows[2]?.run ?? null;
  return (
    <div className="output-compare" data-testid="output-compare">
      <div className="buttons">
        <button onClick={compare} disabled={series.running} data-testid="compare">
          Run serial, dual-thread and two-stage
        </button>
      </div>
      <PlanProgressLine plan={series} />
      {rows.length > 0 && (
        <table className="paper-table run-table">
          <thead>
            <tr>
              <th>How the text is written</th>
              <th>Threads</th>
              <th>Time</th>
              <th>Throughput</th>
              <th>Speed-up over serial</th>
              <th>The twin&apos;s time</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(({ spec: s, run: r, twinUs }) => {
              const kind = r ? kindOf(r.source) : undefined;
              return (
                <tr key={s.variant} data-variant={s.variant} data-kind={kind}>
                  <td>{LABEL[s.variant!]}</td>
                  <td className="num">{s.threads}</td>
                  <td className={`num ${kind ?? ''}`}>{r ? formatMs(r.summary.elapsedUs) : '…'}</td>
                  <td className={`num ${kind ?? ''}`}>
                    {r ? `${formatRate(r.summary.itemsPerSec)} items/s` : ''}
                  </td>
                  <td className={`num ${kind ?? ''}`} data-testid="speedup">
                    {r && serial
                      ? `${(serial.summary.elapsedUs / r.summary.elapsedUs).toFixed(2)}×`
                      : ''}
                  </td>
                  <td className="num simulated">{twinUs === null ? '…' : formatMs(twinUs)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {rows.length > 0 && (
        <p className="hint">
          {rows[0].spec.items.toLocaleString('en-US')} items each, the same text every time;{' '}
          {kindOf(rows.at(-1)?.run?.source ?? 'simulation') === 'measured'
            ? 'measured on your threads'
            : 'simulated'}
          .
        </p>
      )}
      {serial && two && <ChecksumLine serial={serial} two={two} />}
    </div>
  );
}

function ChecksumLine({ serial, two }: { serial: FinishedRun; two: FinishedRun }) {
  const a = serial.output && 'checksum' in serial.output ? serial.output : null;
  const b = two.output && 'checksum' in two.output ? two.output : null;
  if (!a || !b)
    return (
      <p className="hint" data-testid="output-checksum" data-kind="simulated">
        The twin formats no text, so there is no checksum to compare: the order is checked on real
        threads only (this page simulates them).
      </p>
    );
  const match = a.checksum === b.checksum && a.bytes === b.bytes;
  return (
    <p
      className={`checksum ${match ? 'match' : 'mismatch'}`}
      data-testid="output-checksum"
      data-kind="measured"
      data-match={match}
      data-checksum={b.checksum}
      data-serial-checksum={a.checksum}
    >
      <span className="tick" aria-hidden>
        {match ? '✓' : '✗'}
      </span>{' '}
      The two-stage writer wrote {b.bytes.toLocaleString('en-US')} bytes with checksum{' '}
      <code>{b.checksum}</code>; the serial run wrote {a.bytes.toLocaleString('en-US')} bytes with
      checksum <code>{a.checksum}</code>:{' '}
      {match ? 'the same text, in the same order.' : 'the texts differ.'}
    </p>
  );
}
