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
} as const;

export type ComponentName = keyof typeof COMPONENTS;
export const COMPONENT_NAMES = Object.keys(COMPONENTS) as ComponentName[];
