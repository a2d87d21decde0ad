// Work stealing right now: each worker as a column of its deque's items, and an arrow from victim
// to thief for each recent successful steal (or pair of workers with its steal count, drawn
// thicker the more it stole), fading with age and gone after fadeMs.
import { useId } from 'react';
import { scaleBand } from 'd3';
import { formatCount, isFiniteNumber, kindOf } from './viewHelpers';
import './views.css';
import { fitted } from './fitWidth';

export interface StealViewProps {
  /** Items in each worker's deque now, index = worker. */
  dequeLengths: number[];
  /**
   * Recent successful steals: thief and victim worker indices, the (newest) steal's age in ms and
   * how many steals the entry stands for (default 1). Oldest first: the view keeps the newest
   * MAX_STEAL_ARROWS.
   */
  steals: Array<{ thief: number; victim: number; ageMs: number; count?: number }>;
  /** Age at which a steal's arrow has faded out, ms (default 1000). */
  fadeMs?: number;
  /** Successful steals so far in this run. */
  stealCount: number;
  /** Where the numbers come from: real threads or the simulation. */
  source: 'threads' | 'simulation';
  /** Width of the drawing, px. */
  width?: number;
}

/** Deque items drawn as cells; longer deques show this many (their label gives the length). */
export const MAX_DEQUE_CELLS = 12;
const CELL = 14;
const ARC_H = 70;
const HEADER = 24;
/** Arrows drawn at most (the newest): beyond a few dozen they are one purple smear anyway. */
export const MAX_STEAL_ARROWS = 64;

/**
 * Stroke width grows with the log of the steal count: 1 steal 2 px, 1024 steals 7 px, at most
 * 8 px; in half-pixel steps, so an arrow whose count creeps up is not repainted every frame.
 */
export function arrowWidth(count: number): number {
  return Math.round(2 * Math.min(8, 2 + 0.5 * Math.log2(Math.max(1, count)))) / 2;
}

/**
 * Opacity falls from 1 to 0 over fadeMs, in steps of 0.1: a pair that keeps stealing keeps an
 * unchanged arrow, and a fading one changes ten times, instead of repainting on every frame.
 */
export function arrowOpacity(ageMs: number, fadeMs: number): number {
  return Math.ceil(10 * (1 - ageMs / fadeMs)) / 10;
}

function StealViewDrawing({
  dequeLengths,
  steals,
  fadeMs = 1000,
  stealCount,
  source,
  width = 560,
}: StealViewProps) {
  const markerId = `steal-head-${useId().replace(/:/g, '')}`;
  const kind = kindOf(source);
  const n = dequeLengths.length;
  if (n === 0) {
    return (
      <svg className="steal-view" width={width} height={48} role="img" aria-label="No workers yet">
        <text x={width / 2} y={28} textAnchor="middle" className="hint">
          No workers yet: start a work-stealing run to see steals.
        </text>
      </svg>
    );
  }
  const x = scaleBand<number>()
    .domain(dequeLengths.map((_, w) => w))
    .range([8, Math.min(width - 8, 8 + n * 80)])
    .paddingInner(0.3)
    .paddingOuter(0.15);
  const colW = x.bandwidth();
  const center = (w: number) => (x(w) ?? 0) + colW / 2;
  const topY = HEADER + ARC_H;
  const cellsTop = topY + 22;
  const baseY = cellsTop + MAX_DEQUE_CELLS * CELL;
  const height = baseY + 26;
  const valid = steals.filter(
    (s) =>
      isFiniteNumber(s.ageMs) &&
      s.ageMs >= 0 &&
      s.ageMs < fadeMs &&
      validWorker(s.thief, n) &&
      validWorker(s.victim, n) &&
      s.thief !== s.victim,
  );
  const countOf = (s: { count?: number }) =>
    isFiniteNumber(s.count) && s.count >= 1 ? Math.round(s.count) : 1;
  const recent = valid.reduce((a, s) => a + countOf(s), 0);
  // The newest arrows, drawn in a fixed order by pair: a pair's arrow keeps its node and place
  // as other pairs steal, so only arrows that changed are repainted.
  const live = valid
    .slice(-MAX_STEAL_ARROWS)
    .sort((a, b) => a.victim - b.victim || a.thief - b.thief);
  const total = dequeLengths.reduce((a, d) => a + (isFiniteNumber(d) ? d : 0), 0);
  const summary = `${n} work-stealing deques holding ${formatCount(total)} items (${kind}); ${formatCount(stealCount)} steals so far, ${formatCount(recent)} in the last ${fadeMs} ms`;
  return (
    <svg className="steal-view" width={width} height={height} role="img" aria-label={summary}>
      <defs>
        <marker
          id={markerId}
          viewBox="0 0 10 10"
          refX={9}
          refY={5}
          // In px, not stroke widths: a thick arrow keeps a head of the same size.
          markerUnits="userSpaceOnUse"
          markerWidth={16}
          markerHeight={16}
          orient="auto"
        >
          <path d="M0,0L10,5L0,10z" className="steal-head" />
        </marker>
      </defs>
      <text x={8} y={16} className="steal-count">
        <tspan data-kind={kind}>{formatCount(stealCount)}</tspan> steals so far · arrows run from
        victim to thief
      </text>
      {dequeLengths.map((len, w) => {
        const known = isFiniteNumber(len) && len >= 0;
        const items = known ? Math.round(len) : 0;
        const shown = Math.min(items, MAX_DEQUE_CELLS);
        return (
          <g key={w} data-testid="deque">
            <rect
              x={x(w)}
              y={cellsTop}
              width={colW}
              height={baseY - cellsTop}
              className="deque-track"
            />
            {Array.from({ length: shown }, (_, c) => (
              <rect
                key={c}
                x={(x(w) ?? 0) + 2}
                y={baseY - (c + 1) * CELL + 1}
                width={colW - 4}
                height={CELL - 2}
                className="deque-cell"
                data-kind={kind}
              />
            ))}
            <text x={center(w)} y={cellsTop - 6} textAnchor="middle" className="deque-length">
              {known ? items : '–'}
            </text>
            <text x={center(w)} y={baseY + 18} textAnchor="middle" className="lane-label">
              w{w}
            </text>
          </g>
        );
      })}
      {live.map((s, k) => {
        const x1 = center(s.victim);
        const x2 = center(s.thief);
        const lift = Math.min(ARC_H - 6, 24 + Math.abs(x2 - x1) * 0.25);
        return (
          <path
            key={`${s.victim}-${s.thief}-${k > 0 && sameSteal(live[k - 1], s) ? k : ''}`}
            d={`M${x1},${topY}Q${(x1 + x2) / 2},${topY - 2 * lift} ${x2},${topY}`}
            className="steal-arrow"
            markerEnd={`url(#${markerId})`}
            opacity={arrowOpacity(s.ageMs, fadeMs)}
            strokeWidth={arrowWidth(countOf(s))}
            data-count={countOf(s)}
            data-kind={kind}
            data-thief={s.thief}
            data-victim={s.victim}
          />
        );
      })}
    </svg>
  );
}

const sameSteal = (a: { thief: number; victim: number }, b: { thief: number; victim: number }) =>
  a.thief === b.thief && a.victim === b.victim;

function validWorker(w: number, n: number): boolean {
  return Number.isInteger(w) && w >= 0 && w < n;
}

/** At most as wide as its box (fitWidth.tsx): a phone or a course column reflows it. */
export const StealView = fitted(StealViewDrawing, 'width', 560);
