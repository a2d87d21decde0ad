// The queue race: one horizontal bar per queue, its items per second measured on the visitor's
// threads (median of the repeats, a whisker from the slowest to the fastest repeat), a row
// waiting for its first repeat drawn empty. D3 computes the scale; React renders the marks.
import { scaleLinear } from 'd3';
import { formatRate } from './format';
import './queueViews.css';
import { fitted } from './fitWidth';

export interface RaceBarRow {
  /** The queue's name as the benchmark writes it (batch, vyukov-mpmc, ...). */
  queue: string;
  /** What to print: the name and a few words. */
  label: string;
  /** Items per second over the repeats so far, or null before the first. */
  rate: { median: number; min: number; max: number } | null;
  repeats: number;
  /** Our batched queue, drawn in the measured colour; the rivals in grey. */
  ours?: boolean;
}

export interface RaceBarsProps {
  rows: RaceBarRow[];
  /** Measured on the visitor's threads, or taken from the committed benchmark (another machine). */
  source?: 'visitor' | 'benchmark';
  /** Width of the drawing, px. */
  widthPx?: number;
}

const ROW_PX = 28;
/** The label column: the longest label, "cached-index, batched (MCRingBuffer)", is 251 px in the
 * page's font and touched its bar at 250. */
const LABEL_PX = 270;
const VALUE_PX = 150;

function RaceBarsDrawing({ rows, source = 'visitor', widthPx = 900 }: RaceBarsProps) {
  const top = Math.max(1, ...rows.map((r) => r.rate?.max ?? 0));
  const x = scaleLinear()
    .domain([0, top])
    .range([0, widthPx - LABEL_PX - VALUE_PX])
    .nice();
  const scaleTop = x.domain()[1];
  return (
    <svg
      className="race-bars"
      width={widthPx}
      height={rows.length * ROW_PX + 24}
      role="img"
      aria-label={`Items per second of ${rows.length} queues, ${source === 'visitor' ? 'measured on your threads' : 'from the committed benchmark'}`}
    >
      {rows.map((r, i) => (
        <g
          key={r.queue}
          transform={`translate(0,${i * ROW_PX})`}
          data-testid="race-bar"
          data-queue={r.queue}
          data-kind={r.rate ? 'measured' : undefined}
          data-source={source}
          data-items-per-s={r.rate?.median ?? ''}
          data-repeats={r.repeats}
        >
          <text x={0} y={ROW_PX / 2 + 4} className={r.ours ? 'label ours' : 'label'}>
            {r.label}
          </text>
          <rect
            x={LABEL_PX}
            y={5}
            height={ROW_PX - 10}
            width={x(scaleTop) - x(0)}
            className="track"
          />
          {r.rate && (
            <>
              <rect
                x={LABEL_PX}
                y={5}
                height={ROW_PX - 10}
                width={Math.max(1, x(r.rate.median) - x(0))}
                className={r.ours ? 'bar ours' : 'bar'}
                data-kind="measured"
                data-source={source}
              />
              {r.rate.max > r.rate.min && (
                <path
                  d={`M${LABEL_PX + x(r.rate.min)},${ROW_PX / 2}H${LABEL_PX + x(r.rate.max)}M${LABEL_PX + x(r.rate.min)},${ROW_PX / 2 - 5}v10M${LABEL_PX + x(r.rate.max)},${ROW_PX / 2 - 5}v10`}
                  className="whisker"
                />
              )}
            </>
          )}
          <text x={widthPx - VALUE_PX + 8} y={ROW_PX / 2 + 4} className="value">
            {r.rate
              ? `${formatRate(r.rate.median)}/s`
              : source === 'visitor'
                ? 'waiting'
                : 'not in it'}
            {r.rate && r.repeats > 1 ? ` (${r.repeats} runs)` : ''}
          </text>
        </g>
      ))}
      <text x={LABEL_PX} y={rows.length * ROW_PX + 16} className="tick">
        0
      </text>
      <text
        x={LABEL_PX + x(scaleTop)}
        y={rows.length * ROW_PX + 16}
        textAnchor="end"
        className="tick"
      >
        {formatRate(scaleTop)} items/s
      </text>
    </svg>
  );
}

/** At most as wide as its box (fitWidth.tsx): a phone or a course column reflows it. */
export const RaceBars = fitted(RaceBarsDrawing, 'widthPx', 900);
