// The pipeline view's queue capacity is what really waits between stages: a phaser spec's streams
// hold `bound` elements (8 by default), not the queue it carries at its default.
import { expect, test } from 'vitest';
import { queueCapacityOf } from '../../../../src/app/lesson/components/PipelineBlock';
import { parseExperimentSpec } from '../../../../src/spec/experimentSpec';

const phaser = (more: Record<string, unknown>) =>
  parseExperimentSpec({
    runtime: 'phaser',
    stages: [
      { name: 'source', mode: 'serial-in-order', service: { kind: 'fixed', us: 10 }, op: 'count' },
      { name: 'avg', mode: 'serial-in-order', service: { kind: 'fixed', us: 10 }, op: 'avg' },
    ],
    streams: [{ from: ['source'], to: ['avg'] }],
    threads: 2,
    items: 10,
    seed: 1,
    ...more,
  });

test("a phaser spec's capacity is its streams' bound", () => {
  expect(queueCapacityOf(phaser({}))).toBe(8);
  expect(queueCapacityOf(phaser({ bound: 3 }))).toBe(3);
});
