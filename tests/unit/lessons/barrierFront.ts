// A thread-packing lesson's front matter (lesson 7's experiment and controls, shortened) for the
// measurement-block tests over the barrier runtime (tp-over-tr, blocks in the visitor's cores).
export const BARRIER_FRONT = `experiment:
  runtime: barrier
  stages:
    - { name: compute, mode: parallel, service: { kind: fixed, us: 40000 } }
  threads: 3
  cores: 2
  items: 60
  seed: 1
  barrier: blocking
  schedule: packed
  quantumUs: 4000
controls:
  - { id: threads, label: Threads, targets: [threads], min: 1, max: 32 }
  - { id: cores, label: Cores, targets: [cores], min: 1, max: 16 }
  - id: schedule
    label: Who places the threads
    choices:
      - { value: packed, label: Explicit packing, set: { schedule: packed } }
      - { value: os, label: The OS scheduler, set: { schedule: os } }
models: [packing-bound]`;
