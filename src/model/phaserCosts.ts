// What the phaser runtime's own work costs a pool thread, besides the stages' service times: the
// costs that make batching matter (one synchronisation per phase instead of one per element).
// The stream-graph bound (streamGraphBound.ts) and the twin (src/sim/phaserRuntime.ts) both charge
// them. Values from this machine kind's measurements (../shared/reference/wasm-threads-recipe.md):
// a model, not a measurement — the lesson sets its numbers beside those measured on the
// visitor's threads.

/** A phase signalled or waited for: a seq_cst store of one counter and a load of the other side's,
 * i.e. one cache-line round trip between cores (~65 ns native, ~63 ns wasm, measured here). */
export const PHASE_SYNC_US = 0.065;
/** One element put into or taken from a batch: a few stores and loads in cache. */
export const ELEMENT_US = 0.003;
/** A task that cannot go on parks and its thread takes the next ready task: a spin lock, a queue
 * push and pop and the task's state in a few cache lines. */
export const TASK_SWITCH_US = 0.3;
/** As phaser::Scheduler::kQuantumUs: a task keeps its thread this long while others are ready. */
export const QUANTUM_US = 200;
/** As PhaserRuntime::kMaxTasks / kMaxStreams (the board's capacities). */
export const MAX_TASKS = 4096;
export const MAX_STREAMS = MAX_TASKS + 16;
