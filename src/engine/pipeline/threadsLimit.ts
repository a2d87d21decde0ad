// How many threads a run may ask for on real threads: a module of its own, without the runtime
// kinds chooseEngine.ts consults, so the start page (which says the limit) does not load them.
export const OVERSUBSCRIPTION_LIMIT = 4;
export const THREADS_ENGINE_MAX_THREADS = 64;

/** The most threads a run may ask for on real threads with this many cores. */
export const threadsLimit = (cores: number) =>
  Math.min(cores * OVERSUBSCRIPTION_LIMIT, THREADS_ENGINE_MAX_THREADS);
