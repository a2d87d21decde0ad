// A disturbed run is named (issue 39): lesson 2 on a loaded machine measured 13.8 items/s against
// a model of 59.2 (57.0 when quiet); a stage whose busy time per item is far above its configured
// service time is a sign too. A quiet run, a run without spare cores (the model does not apply)
// and µs-scale services (timing costs dominate) are not flagged.
import { expect, test } from 'vitest';
import { runDisturbance } from '../../../src/model/disturbance';

const quietStages = [{ name: 'work', serviceUs: 10_000, busyUs: 1_000_000, items: 100 }];

test("lesson 2's loaded run is flagged by its throughput; its quiet run is not", () => {
  const loaded = runDisturbance({
    itemsPerSec: 13.8,
    modelItemsPerSec: 59.2,
    coresToSpare: true,
    stages: quietStages,
  });
  expect(loaded?.throughputShare).toBeCloseTo(13.8 / 59.2, 6);
  expect(
    runDisturbance({
      itemsPerSec: 57,
      modelItemsPerSec: 59.2,
      coresToSpare: true,
      stages: quietStages,
    }),
  ).toBeNull();
  // Threads sharing cores: the model (a core per thread) does not apply, so no verdict from it.
  expect(
    runDisturbance({
      itemsPerSec: 13.8,
      modelItemsPerSec: 59.2,
      coresToSpare: false,
      stages: quietStages,
    }),
  ).toBeNull();
});

test('a stage taking twice its service time per item is named with both times', () => {
  const d = runDisturbance({
    itemsPerSec: 50,
    modelItemsPerSec: 59.2,
    coresToSpare: false,
    stages: [
      { name: 'read', serviceUs: 1000, busyUs: 110_000, items: 100 },
      { name: 'work', serviceUs: 10_000, busyUs: 2_100_000, items: 100 },
      { name: 'tiny', serviceUs: 2, busyUs: 1000, items: 100 },
    ],
  });
  expect(d).toEqual({
    slowest: { name: 'work', measuredUs: 21_000, configuredUs: 10_000 },
    throughputShare: null,
  });
});
