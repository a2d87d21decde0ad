// The packing grid: one interval of a barrier-synchronous run, cores as columns and each core's
// threads stacked on it as blocks. Inside a block, time runs left to right across the interval:
// solid where the thread computed, pale where it was ready but its core ran a neighbour, hatched
// where it had finished and waited at the barrier. The overloaded core's blocks are solid to the
// end; everyone else's end in hatching — waiting for it. Under OS scheduling on real threads the
// browser cannot see the cores, so the threads stand in one column and each block is solid from
// its start to its arrival (time it lost to neighbours is inside that).
// D3 computes the scales; React renders the marks.
import { HatchPattern, useHatchId } from './HatchPattern';
import { scaleBand, scaleLinear } from 'd3';
import type { IntervalRecord, ThreadInterval } from '../live/barrierState';
import { counted } from '../spec/words';
import { formatMs } from './format';
import { kindOf, type Source } from './viewHelpers';
import './views.css';
import { fitted } from './fitWidth';

export interface PackingGridProps {
  /** The interval to draw (every thread has passed it). */
  interval: IntervalRecord;
  /** Intervals in the run. */
  intervalsTotal: number;
  /** Per thread, the share of the run so far it spent waiting at barriers (0..1). */
  idleShare: number[];
  /** Columns: the core count when the cores are known (packed, or the twin); null when the OS
   * placed real threads unseen. */
  cores: number | null;
  /** Each thread's work per interval, µs (said in the caption: the interval's length is that
   * times the threads its core ran, plus whatever else the machine was doing). */
  threadWorkUs?: number;
  /** Where the interval comes from. */
  source: Source;
  /** Width of the drawing, px. */
  width?: number;
}

const HEADER_PX = 34;
const BLOCK_PX = 20;
const GAP_PX = 4;
const COLUMN_GAP_PX = 8;
const LABEL_MIN_COLUMN_PX = 160;
const LABEL_PX = 92;

/** What the interval shows, in sentences that are true at its numbers. */
export function describeInterval(interval: IntervalRecord, cores: number | null): string {
  const lengthUs = interval.endUs - interval.startUs;
  const last = interval.threads.reduce((a, b) => (b.arriveUs > a.arriveUs ? b : a));
  const longestWait = Math.max(...interval.threads.map((t) => t.passUs - t.arriveUs));
  const head = `Interval ${interval.interval + 1} took ${formatMs(lengthUs)}.`;
  // "The others" after a core would read as the other cores; the wait is the threads'.
  const waited = `waited up to ${formatMs(longestWait)} (${Math.round((100 * longestWait) / lengthUs)}% of it) at the barrier`;
  if (cores === null || last.core === null)
    return `${head} Thread ${last.thread} arrived last; the others ${waited}.`;
  const n = interval.threads.length;
  const onIt = interval.threads.filter((t) => t.core === last.core).length;
  if (n === 1) return `${head} Core ${last.core} ran the only thread.`;
  // One core ran them all (one core, or every other core idle): it did not finish "last" of any.
  if (onIt === n)
    return `${head} Core ${last.core} ran all ${n} threads; those that finished before the last one ${waited}.`;
  return `${head} Core ${last.core} ran ${counted(onIt, 'thread')} and finished last; the threads that arrived before ${waited}.`;
}

function PackingGridDrawing({
  interval,
  intervalsTotal,
  idleShare,
  cores,
  threadWorkUs,
  source,
  width = 900,
}: PackingGridProps) {
  const hatchId = useHatchId('grid-hatch');
  const kind = kindOf(source);
  const columns = cores ?? 1;
  const byColumn: ThreadInterval[][] = Array.from({ length: columns }, () => []);
  for (const t of interval.threads) byColumn[cores === null ? 0 : (t.core ?? 0)].push(t);
  const rows = Math.max(1, ...byColumn.map((c) => c.length));
  const column = scaleBand<number>()
    .domain(byColumn.map((_, c) => c))
    .range([0, width])
    .paddingInner(COLUMN_GAP_PX / (width / columns));
  const labelled = column.bandwidth() >= LABEL_MIN_COLUMN_PX;
  const labelPx = labelled ? LABEL_PX : 0;
  const time = scaleLinear()
    .domain([interval.startUs, interval.endUs])
    .range([labelPx, column.bandwidth()])
    .clamp(true);
  const height = HEADER_PX + rows * (BLOCK_PX + GAP_PX) + 4;
  const caption =
    describeInterval(interval, cores) +
    (threadWorkUs ? ` Each thread has ${formatMs(threadWorkUs)} of work per interval.` : '');
  return (
    <figure className="packing-grid" data-testid="packing-grid" data-kind={kind}>
      <figcaption>
        {caption}{' '}
        <span className="hint">
          ({kind}; interval {interval.interval + 1} of {intervalsTotal}
          {labelled ? '; “% idle”: the thread’s share of the run so far spent waiting' : ''})
        </span>
      </figcaption>
      <svg width={width} height={height} role="img" aria-label={caption}>
        <defs>
          <HatchPattern id={hatchId} />
        </defs>
        {byColumn.map((threads, c) => (
          <g
            key={c}
            transform={`translate(${column(c)},0)`}
            data-testid="packing-core"
            data-core={cores === null ? 'os' : c}
            data-threads={threads.length}
          >
            <text x={0} y={14} className="core-label">
              {cores === null ? `placed by the OS on your cores` : `core ${c}`}
            </text>
            <text x={0} y={28} className="core-sub">
              {counted(threads.length, 'thread')}
            </text>
            {threads.length === 0 && (
              <text x={0} y={HEADER_PX + 14} className="hint">
                idle
              </text>
            )}
            {threads.map((t, r) => (
              <g
                key={t.thread}
                transform={`translate(0,${HEADER_PX + r * (BLOCK_PX + GAP_PX)})`}
                data-testid="packing-thread"
                data-thread={t.thread}
              >
                <title>
                  {`thread ${t.thread}: computed ${formatMs(t.stretches.reduce((s, x) => s + x.endUs - x.startUs, 0))}, waited ${formatMs(t.passUs - t.arriveUs)} at the barrier; ${Math.round(100 * (idleShare[t.thread] ?? 0))}% of the run waiting`}
                </title>
                {labelled && (
                  <text x={0} y={BLOCK_PX - 6} className="thread-label">
                    t{t.thread} · {Math.round(100 * (idleShare[t.thread] ?? 0))}% idle
                  </text>
                )}
                <rect
                  x={time(t.fromUs)}
                  width={Math.max(0, time(t.arriveUs) - time(t.fromUs))}
                  height={BLOCK_PX}
                  className="ready"
                />
                {t.stretches.map((s, k) => (
                  <rect
                    key={k}
                    x={time(s.startUs)}
                    width={Math.max(0.5, time(s.endUs) - time(s.startUs))}
                    height={BLOCK_PX}
                    className="computing"
                    data-kind={kind}
                  />
                ))}
                <rect
                  x={time(t.arriveUs)}
                  width={Math.max(0, time(t.passUs) - time(t.arriveUs))}
                  height={BLOCK_PX}
                  fill={`url(#${hatchId})`}
                  className="waiting"
                  data-testid="barrier-wait"
                />
              </g>
            ))}
          </g>
        ))}
      </svg>
      <p className="legend-line">
        <span className="swatch computing" /> computing <span className="swatch ready" /> ready, its
        core running a neighbour <span className="swatch waiting" /> done, waiting at the barrier
      </p>
    </figure>
  );
}

/** At most as wide as its box (fitWidth.tsx): a phone or a course column reflows it. */
export const PackingGrid = fitted(PackingGridDrawing, 'width', 900);
