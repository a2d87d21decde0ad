// The components a lesson's prose can place with a `::name` line, and what each shows. The build
// rejects any other name (naming file and line); the app renders each through its registry
// (src/app/lesson/registry.ts), whose type makes it cover exactly these names.
export const COMPONENTS = {
  experiment:
    "the experiment panel: controls, Run / Pause / Stop, the run's numbers and the models'",
  pipeline: 'stages as boxes with their queues, idle stages marked as bubbles',
  timeline: "each thread's recent past: busy per stage, idle, blocked, stealing",
  steals: "work stealing: each thread's deque and the steals between threads",
  'model-chart':
    'throughput against the swept control: model curves, measured and simulated points',
  paper: "what the source paper measured beside ours (the front matter's `paper` rows)",
  measure:
    "a measurement block of the front matter's `measure` list, placed as ::measure{id=…}: its series measured, simulated, modelled, as a chart or a table",
  'queue-race': "every queue raced on the visitor's cores: items/s per queue with spread",
  'wasm-fences': 'per-item against batched queues: the ratio measured here beside native',
  'cacheline-view': "the experiment's BatchQueue as cache lines, moved by its real indices",
  'false-sharing': 'padded against unpadded queue layouts, raced, and which fields share a line',
  'comm-model': "speed-up S(n) = T_seq / (T_seq/n + T_comm) from the visitor's measured T_comm",
  'semi-latency': 'BatchQueue semi-buffer size against throughput and wait, and flush()',
  reorder:
    "the two-stage output's buffer pool: batches being filled, finished ones waiting for their turn, the writer's next",
  'packing-grid':
    'barrier runtime: the last interval with cores as columns and their threads stacked on them (computing, ready, waiting at the barrier); measures the packed imbalance factor (paper row `imbalance`)',
  'stream-graph':
    "a phaser run's tasks and streams: each task's phase counter and thread, each stream's full phases of its bound",
  'task-timeline': "each task's recent past: busy in the colour of its thread, parked waiting",
  'stage-breakdown':
    "useful, idle and blocked time per stage for both of a `layout` control's paired layouts, side by side (seed 000's Fig. 2)",
  'layout-chart':
    "time for the run against npTh for both paired layouts: the closed or open model, the exact chain, runs (seed 000's Fig. 6)",
  oversubscription:
    "one thread per core against `tpc` threads per core on the visitor's cores: time, speed-up, efficiency (seed 000's Table 1)",
  sizing:
    "'Size it for me': measure the stages, solve N_optimal and c_optimal with the numbers shown, set them and run (seed 000 §3.4)",
} as const;

export type ComponentName = keyof typeof COMPONENTS;
export const COMPONENT_NAMES = Object.keys(COMPONENTS) as ComponentName[];
