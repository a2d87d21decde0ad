// Creates the engine for this page (threads when the page is isolated, else the single-thread
// build) and ends it, with every thread it started, when the page goes away.
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { CountingEngine, type EngineSnapshot } from '../../engine/countingEngine';
import { canUseThreads, visitorCores } from '../../engine/isolation';
import { wasmModuleUrl } from '../../engine/wasmUrl';

type Setup = { moduleUrl: string; threaded: boolean } | { error: string };

function engineSetup(): Setup {
  const threaded = canUseThreads();
  try {
    return {
      moduleUrl: wasmModuleUrl(threaded ? 'pipelab-web-mt.js' : 'pipelab-web-st.js'),
      threaded,
    };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

const noSubscription = () => () => {};

export function useCountingEngine(): {
  engine: CountingEngine | null;
  snapshot: EngineSnapshot | null;
} {
  const setup = useMemo(() => engineSetup(), []);
  const [engine, setEngine] = useState<CountingEngine | null>(null);
  useEffect(() => {
    if ('error' in setup) return;
    const created = new CountingEngine({
      moduleUrl: setup.moduleUrl,
      threaded: setup.threaded,
      poolSize: visitorCores(),
    });
    // The engine is an external system (a Worker) owned by this effect; React holds its handle.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setEngine(created);
    return () => created.dispose();
  }, [setup]);
  const snapshot = useSyncExternalStore(
    engine ? (listener) => engine.subscribe(listener) : noSubscription,
    () => engine?.current ?? null,
  );
  if ('error' in setup)
    return {
      engine: null,
      snapshot: {
        state: 'error',
        info: null,
        params: null,
        lastStop: null,
        ended: null,
        error: setup.error,
      },
    };
  return { engine, snapshot };
}
