// Reads the counters once per animation frame and turns them into rates (counts per second) over
// a sliding window; React gets one snapshot per frame.
import { useEffect, useRef, useState } from 'react';
import type { CountingEngine } from '../../engine/countingEngine';

const WINDOW_MS = 500;
const HISTORY_MS = 10_000;

export interface LiveCounts {
  counts: Float64Array;
  ratesPerSec: Float64Array;
  totalRatePerSec: number;
  /** Total rate over the last seconds: [msSinceStart, countsPerSec]. */
  history: Array<[number, number]>;
}

interface Sample {
  t: number;
  counts: Float64Array;
}

export function useLiveCounts(engine: CountingEngine | null, runKey: number, threads: number): LiveCounts {
  const [live, setLive] = useState<LiveCounts>(() => empty(threads));
  const samples = useRef<Sample[]>([]);
  const history = useRef<Array<[number, number]>>([]);

  useEffect(() => {
    samples.current = [];
    history.current = [];
    setLive(empty(threads));
    if (!engine) return;
    let frame = 0;
    const t0 = performance.now();
    const tick = () => {
      const now = performance.now();
      const counts = new Float64Array(threads);
      engine.readCounts(counts);
      samples.current.push({ t: now, counts });
      while (samples.current.length > 2 && now - samples.current[0].t > WINDOW_MS) samples.current.shift();
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
      history.current.push([now - t0, total]);
      while (history.current.length && now - t0 - history.current[0][0] > HISTORY_MS) history.current.shift();
      setLive({ counts, ratesPerSec: rates, totalRatePerSec: total, history: history.current.slice() });
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
  };
}
