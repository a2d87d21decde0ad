// Creates the engine for this page (threads when the page is isolated, else the single-thread
// build) and ends it, with every thread it started, when the page goes away.
import { useEffect, useState } from 'react';
import { CountingEngine, type EngineSnapshot } from '../../engine/countingEngine';
import { canUseThreads } from '../../engine/isolation';
import { wasmModuleUrl } from '../../engine/wasmUrl';

export function useCountingEngine(): { engine: CountingEngine | null; snapshot: EngineSnapshot | null } {
  const [engine, setEngine] = useState<CountingEngine | null>(null);
  const [snapshot, setSnapshot] = useState<EngineSnapshot | null>(null);
  useEffect(() => {
    let created: CountingEngine;
    try {
      const threaded = canUseThreads();
      created = new CountingEngine({
        moduleUrl: wasmModuleUrl(threaded ? 'pipelab-web-mt.js' : 'pipelab-web-st.js'),
        threaded,
        poolSize: navigator.hardwareConcurrency || 2,
      });
    } catch (e) {
      setSnapshot({ state: 'error', info: null, params: null, lastStop: null, error: String(e) });
      return;
    }
    setEngine(created);
    setSnapshot(created.current);
    const unsubscribe = created.subscribe(setSnapshot);
    return () => {
      unsubscribe();
      created.dispose();
    };
  }, []);
  return { engine, snapshot };
}
