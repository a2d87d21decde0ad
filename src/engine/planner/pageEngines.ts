// The engines one page runs plans on: the threads engine (the pipeline runtimes on real threads)
// and the race engine (the queue race), each a worker of its own created on first use, and the live
// host (the view that draws a live run), which the page's view registers. dispose() ends both
// workers and every thread they started, so leaving a page leaves no thread running.
import { visitorCores } from '../isolation';
import { ThreadsEngine } from '../pipeline/threadsEngine';
import { RaceEngine } from '../race/raceEngine';
import { wasmModuleUrl } from '../wasmUrl';
import type { LiveHost } from './live';
import type { StepEngines } from './steps';

export interface EngineFactories {
  threads: () => ThreadsEngine;
  race: () => RaceEngine;
}

const defaultFactories: EngineFactories = {
  threads: () => new ThreadsEngine(wasmModuleUrl('pipelab-web-mt.js'), visitorCores()),
  // A core per thread of the longest chain a panel runs is not guaranteed: the pool starts at
  // the visitor's cores and grows while the engine worker waits in its event loop.
  race: () => new RaceEngine(wasmModuleUrl('pipelab-web-mt.js'), visitorCores()),
};

export class PageEngines implements StepEngines {
  private threadsEngine: ThreadsEngine | null = null;
  private raceEngine: RaceEngine | null = null;
  private host: LiveHost | null = null;

  constructor(private readonly make: EngineFactories = defaultFactories) {}

  threads(): ThreadsEngine {
    this.threadsEngine ??= this.make.threads();
    return this.threadsEngine;
  }

  race(): RaceEngine {
    this.raceEngine ??= this.make.race();
    return this.raceEngine;
  }

  live(): LiveHost {
    if (!this.host) throw new Error('nothing on this page draws a live run');
    return this.host;
  }

  /** Makes `host` the page's live view until the returned function is called. */
  setLiveHost(host: LiveHost): () => void {
    this.host = host;
    return () => {
      if (this.host === host) this.host = null;
    };
  }

  /** Ends the race engine's worker and threads (no race view left on the page); the next race
   * starts a new one. */
  releaseRace(): void {
    this.raceEngine?.dispose();
    this.raceEngine = null;
  }

  dispose(): void {
    this.threadsEngine?.dispose();
    this.threadsEngine = null;
    this.releaseRace();
  }
}
