// Reads the counters once per animation frame while a run is in flight (running or stopping) and
// turns them into rates (counts per second) over a sliding window; React gets one snapshot per
// frame. Once the run is over the frames stop: the page draws its end from the engine's final
// counts (EngineSnapshot.ended), not from the last frame sampled here, which the threads may
// have counted past before they stopped.
import { useEffect, useRef, useState } from 'react';
import type { CountingEngine } from '../../engine/countingEngine';
import { REDUCED_MOTION_REFRESH_MS, useReducedMotion } from '../useReducedMotion';

const WINDOW_MS = 500;
const HISTORY_MS = 10_000;
const HEADROOM = 1.15;
/** Thread start-up and wasm tier-up happen in the first moments of a run: measure after them. */
export const SETTLE_MS = 700;

export interface LiveCounts {
  counts: Float64Array;
  ratesPerSec: Float64Array;
  totalRatePerSec: number;
  /** Total rate over the last seconds: [msSinceStart, countsPerSec]. */
  history: Array<[number, number]>;
  /** Scale tops for the charts: the highest rates seen in this run, with headroom, so the bars
   * and the line keep a steady scale instead of rescaling every frame. */
  peakThreadRatePerSec: number;
  peakTotalRatePerSec: number;
  /** Mean total rate since the run settled (SETTLE_MS after its start; 0 before), counts/s:
   * longer than the sliding window, so it is the number to compare layouts with. */
  settledRatePerSec: number;
}

interface Sample {
  t: number;
  counts: Float64Array;
}

export function useLiveCounts(
  engine: CountingEngine | null,
  runKey: number,
  threads: number,
): LiveCounts {
  const [live, setLive] = useState<LiveCounts>(() => empty(threads));
  const samples = useRef<Sample[]>([]);
  const history = useRef<Array<[number, number]>>([]);
  const reduced = useReducedMotion();
  const reducedMotion = useRef(reduced);
  useEffect(() => {
    reducedMotion.current = reduced;
  }, [reduced]);

  useEffect(() => {
    samples.current = [];
    history.current = [];
    if (!engine) return;
    let peakThread = 1;
    let peakTotal = 1;
    let settledFrom: { t: number; sum: number } | null = null;
    let frame = 0;
    const t0 = performance.now();
    let drawnAt = -Infinity;
    const tick = () => {
      const { state } = engine.current;
      if (state === 'idle' || state === 'error') return;
      const now = performance.now();
      const counts = new Float64Array(threads);
      engine.readCounts(counts);
      samples.current.push({ t: now, counts });
      while (samples.current.length > 2 && now - samples.current[0].t > WINDOW_MS)
        samples.current.shift();
      const oldest = samples.current[0];
      const dtSec = (now - oldest.t) / 1000;
      const rates = new Float64Array(threads);
      let total = 0;
      if (dtSec > 0.05) {
        for (let i = 0; i < threads; i++) {
          rates[i] = Math.max(0, (counts[i] - oldest.counts[i]) / dtSec);
          total += rates[i];
        }
      }
      const sum = counts.reduce((a, b) => a + b, 0);
      if (!settledFrom && now - t0 >= SETTLE_MS) settledFrom = { t: now, sum };
      const settled =
        settledFrom && now - settledFrom.t > 100
          ? ((sum - settledFrom.sum) * 1000) / (now - settledFrom.t)
          : 0;
      for (const r of rates) peakThread = Math.max(peakThread, r * HEADROOM);
      peakTotal = Math.max(peakTotal, total * HEADROOM);
      history.current.push([now - t0, total]);
      while (history.current.length && now - t0 - history.current[0][0] > HISTORY_MS)
        history.current.shift();
      // Less motion: bars and the rate line redraw once a second; the numbers go on.
      const redraw = !reducedMotion.current || now - drawnAt >= REDUCED_MOTION_REFRESH_MS;
      if (redraw) drawnAt = now;
      setLive((prev) => ({
        counts,
        ratesPerSec: redraw ? rates : prev.ratesPerSec,
        totalRatePerSec: total,
        history: redraw ? history.current.slice() : prev.history,
        peakThreadRatePerSec: peakThread,
        peakTotalRatePerSec: peakTotal,
        settledRatePerSec: settled,
      }));
      frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [engine, runKey, threads]);

  return live;
}

function empty(threads: number): LiveCounts {
  return {
    counts: new Float64Array(threads),
    ratesPerSec: new Float64Array(threads),
    totalRatePerSec: 0,
    history: [],
    peakThreadRatePerSec: 1,
    peakTotalRatePerSec: 1,
    settledRatePerSec: 0,
  };
}
