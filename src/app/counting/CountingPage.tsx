// "Counting threads": N real threads count as fast as they can; their counters sit in one cache
// line (packed) or each on its own (padded), and the page shows what that does to the rate.
import { useEffect, useMemo, useRef, useState } from 'react';
import { CounterBars } from '../../views/CounterBars';
import { formatRate } from '../../views/format';
import { RateHistory } from '../../views/RateHistory';
import { threadsUnavailableReason, visitorCores } from '../../engine/isolation';
import { panelState } from '../../engine/countingEngine';
import { replaceQuery } from '../route';
import {
  LAYOUTS,
  layoutLabel,
  typedThreads,
  verdictWords,
  MAX_THREADS,
  readCountingControls,
  WORK_CHOICES_NS,
  type CountingControls,
  type LayoutName,
} from './countingParams';
import { useCountingEngine } from './useCountingEngine';
import { useLiveCounts } from './useLiveCounts';

const COMPARE_MS = 2000;

interface Measured {
  ratePerSec: number;
  threads: number;
}

export function CountingPage({ query }: { query: URLSearchParams }) {
  const cores = visitorCores();
  const { controls: initial, errors } = useMemo(
    () => readCountingControls(query, cores),
    [query, cores],
  );
  const [controls, setControls] = useState<CountingControls>(initial);
  // What is typed in the Threads field, which may be mid-edit or out of range (then named).
  const [threadsText, setThreadsText] = useState(String(initial.threads));
  const [threadsError, setThreadsError] = useState<string | null>(null);
  const { engine, snapshot } = useCountingEngine();
  const [runKey, setRunKey] = useState(0);
  const [measured, setMeasured] = useState<Partial<Record<LayoutName, Measured>>>({});
  const [comparing, setComparing] = useState(false);
  const compareTimers = useRef<number[]>([]);

  const state = snapshot?.state ?? 'loading';
  const running = state === 'running';
  const live = useLiveCounts(engine, runKey, snapshot?.params?.threads ?? controls.threads);
  // A run is done only once every thread has been joined; its bars then show the counts read
  // after the joins, not the last frame's.
  const dataState = panelState({ state }, runKey > 0);
  const counts = dataState === 'done' && snapshot?.ended ? snapshot.ended : live.counts;

  useEffect(() => replaceQuery('/threads', { ...controls }), [controls]);
  useEffect(() => () => compareTimers.current.forEach(clearTimeout), []);

  // The table shows each layout's last settled rate; the running layout's entry is live.
  const runLayout: LayoutName | null = snapshot?.params
    ? snapshot.params.padded
      ? 'padded'
      : 'packed'
    : null;
  const table: Partial<Record<LayoutName, Measured>> =
    running && runLayout && snapshot?.params && live.settledRatePerSec > 0
      ? {
          ...measured,
          [runLayout]: {
            ratePerSec: live.settledRatePerSec,
            threads: snapshot.params.threads,
          },
        }
      : measured;
  const latestTable = useRef(table);
  useEffect(() => {
    latestTable.current = table;
  });

  /** Keeps the live measurement when its run ends (called from handlers and timers only). */
  const commit = () => setMeasured(latestTable.current);

  const start = (c: CountingControls) => {
    if (!engine) return;
    commit();
    engine.start({ threads: c.threads, padded: c.layout === 'padded', workUs: c.workNs / 1000 });
    setRunKey((k) => k + 1);
  };

  const stop = () => {
    commit();
    engine?.stop();
  };

  // "Compare both": packed for a while, then padded, then stop.
  const compare = () => {
    const packed = { ...controls, layout: 'packed' as const };
    const padded = { ...controls, layout: 'padded' as const };
    setComparing(true);
    setControls(packed);
    start(packed);
    compareTimers.current = [
      window.setTimeout(() => {
        setControls(padded);
        start(padded);
      }, COMPARE_MS),
      window.setTimeout(() => {
        stop();
        setComparing(false);
      }, 2 * COMPARE_MS),
    ];
  };

  const threaded = snapshot?.info?.threaded ?? null;
  const oversubscribed = threaded === true && controls.threads > cores;
  // Without real threads one thread takes every counter's turns: its figures simulate the threads.
  const kind = threaded === false ? 'simulated' : 'measured';
  const ratio =
    table.packed && table.padded
      ? table.padded.ratePerSec / Math.max(1, table.packed.ratePerSec)
      : null;
  const verdict = ratio === null ? null : verdictWords(ratio);

  return (
    <main className="page">
      <h1>Counting threads</h1>
      <p className="lead">
        Each thread does a little busy work, then adds one to its own counter. No thread ever
        touches another thread&apos;s counter — yet when the counters sit side by side in one cache
        line, the cores pass that line back and forth on every count (<em>false sharing</em>). Give
        each counter its own line and compare.
      </p>
      {errors.map((e) => (
        <p key={e} role="alert" className="notice error">
          {e}
        </p>
      ))}
      <section
        className="experiment"
        data-testid="experiment"
        data-engine={threaded === false ? 'simulation' : 'threads'}
        data-state={dataState}
        data-run-state={state}
        data-pool-workers={snapshot?.lastStop?.poolWorkers ?? ''}
        data-stop-ms={snapshot?.lastStop?.stopMs ?? ''}
      >
        <EngineBadge threaded={threaded} cores={cores} />
        <div className="controls">
          <label>
            Threads
            <input
              type="number"
              min={1}
              max={MAX_THREADS}
              value={threadsText}
              aria-label="threads"
              aria-invalid={threadsError !== null}
              onChange={(e) => {
                setThreadsText(e.target.value);
                const typed = typedThreads(e.target.value);
                setThreadsError('error' in typed ? typed.error : null);
                if ('value' in typed) setControls({ ...controls, threads: typed.value });
              }}
            />
          </label>
          {threadsError && (
            <span role="alert" className="notice error" data-testid="threads-error">
              {threadsError}; still {controls.threads}
            </span>
          )}
          <fieldset className="layout">
            <legend>Counters</legend>
            {LAYOUTS.map((l) => (
              <label key={l}>
                <input
                  type="radio"
                  name="layout"
                  value={l}
                  checked={controls.layout === l}
                  onChange={() => {
                    const next = { ...controls, layout: l };
                    setControls(next);
                    if (running) start(next);
                  }}
                />
                {layoutLabel(l, controls.threads)}
              </label>
            ))}
          </fieldset>
          <label>
            Work per count
            <select
              value={controls.workNs}
              aria-label="work per count"
              onChange={(e) => setControls({ ...controls, workNs: Number(e.target.value) })}
            >
              {WORK_CHOICES_NS.map((ns) => (
                <option key={ns} value={ns}>
                  {ns === 0 ? 'none' : ns < 1000 ? `${ns} ns` : `${ns / 1000} µs`}
                </option>
              ))}
            </select>
          </label>
          <div className="buttons">
            {running ? (
              <button onClick={stop} data-testid="stop">
                Stop
              </button>
            ) : (
              <button
                onClick={() => start(controls)}
                disabled={!engine || state !== 'idle'}
                data-testid="start"
              >
                Start
              </button>
            )}
            <button onClick={compare} disabled={!engine || comparing || state === 'loading'}>
              Compare both layouts
            </button>
          </div>
        </div>
        {oversubscribed && (
          <p className="notice">
            {controls.threads} threads on {cores} cores: they take turns (oversubscription), so each
            counts only part of the time.
          </p>
        )}
        {snapshot?.error && (
          <p role="alert" className="notice error">
            {snapshot.error}
          </p>
        )}
        <div className="charts">
          <CounterBars
            ratesPerSec={live.ratesPerSec}
            counts={counts}
            maxRatePerSec={live.peakThreadRatePerSec}
            kind={kind}
          />
          <div className="total">
            <span className="big" data-testid="total-rate" data-kind={kind}>
              {formatRate(live.totalRatePerSec)}
            </span>{' '}
            counts/s in total <span className="source">({kind})</span>
          </div>
          <RateHistory
            history={live.history}
            maxRatePerSec={live.peakTotalRatePerSec}
            kind={kind}
          />
        </div>
        <table className="comparison" data-testid="comparison">
          <thead>
            <tr>
              <th>Counters</th>
              <th>Total rate ({kind})</th>
              <th>Threads</th>
            </tr>
          </thead>
          <tbody>
            {LAYOUTS.map((l) => (
              <tr key={l} data-layout={l} data-rate={table[l]?.ratePerSec ?? ''}>
                <td>{layoutLabel(l, table[l]?.threads ?? controls.threads)}</td>
                <td>{table[l] ? `${formatRate(table[l]!.ratePerSec)}/s` : '—'}</td>
                <td>{table[l]?.threads ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {ratio !== null && (
          <p className="verdict" data-kind={kind}>
            {verdict?.lead}
            <strong>{verdict?.figure}</strong>
            {verdict?.rest}
            {kind === 'simulated'
              ? ' here, where one thread takes every turn: no line moves between cores, so this is not false sharing.'
              : '.'}
          </p>
        )}
        {snapshot?.lastStop && (
          <p className="diagnostics">
            Last stop: every thread exited in {snapshot.lastStop.stopMs.toFixed(1)} ms
            {threaded ? `; ${snapshot.lastStop.poolWorkers} pthread Workers kept in the pool` : ''}.
          </p>
        )}
      </section>
    </main>
  );
}

function EngineBadge({ threaded, cores }: { threaded: boolean | null; cores: number }) {
  if (threaded === null) return <p className="engine-badge">Loading the wasm engine…</p>;
  if (threaded)
    return (
      <p className="engine-badge threads">
        Real threads: C++ on pthreads in WebAssembly, on your {cores} cores.
      </p>
    );
  return (
    <p className="engine-badge simulation" role="status">
      Simulated on one thread: {threadsUnavailableReason()} The single-threaded build runs instead —
      the counters take turns, so there is no false sharing to see. Run <code>npm start</code>, or
      serve the site with COOP/COEP headers, for real threads.
    </p>
  );
}
