// Lesson 7's chart label names the idealised bound's highest point where threads outnumber cores:
// the maximum of the curve it labels, not its value at T−1 cores (32 threads peak at 15 cores,
// 1.406, where 16 cores give 1.000), and no point at all with one thread.
import { expect, test } from 'vitest';
import { boundLabel, sweepHint } from '../../../../src/app/lesson/components/PackingChartBlock';
import { threadPacking } from '../../../../src/model/seedModels';

const peak = (label: string) => /\((\d\.\d{3}) at (\d+) on (\d+)/.exec(label);

test.each([2, 3, 5, 16, 17, 32, 64])(
  "at %i threads the label gives the curve's highest point",
  (threads) => {
    const m = peak(boundLabel(threads));
    expect(m).not.toBeNull();
    const curve = Array.from(
      { length: Math.min(16, threads - 1) },
      (_, i) => threadPacking({ threads, cores: i + 1 }).slowdownVsReduction,
    );
    expect(Number(m![1])).toBeCloseTo(Math.max(...curve), 3);
    expect(Number(m![2])).toBe(threads);
    expect(curve[Number(m![3]) - 1]).toBeCloseTo(Math.max(...curve), 9);
  },
);

test("the paper's 16 threads: 1.875 at 15 cores, beside the 1.337 it measured", () => {
  expect(boundLabel(16)).toContain('(1.875 at 16 on 15; the paper measured 1.337)');
});

test('one thread outnumbers no core count: the label names the bound and no point', () => {
  expect(boundLabel(1)).toBe(
    'idealised bound ⌈T/C⌉·C/T for C < T (1 for C ≥ T), no balancing inside an interval',
  );
});

test('the label says the curve is 1 from C = T on, as the model draws it', () => {
  for (const cores of [3, 4, 16])
    expect(threadPacking({ threads: 3, cores }).slowdownVsReduction).toBe(1);
  expect(boundLabel(3)).toContain('(1 for C ≥ T)');
});

test("the sweep's hint counts its points in words: its one, both, all n", () => {
  expect(sweepHint(1, 0, 2, null)).toContain('simulates its one point on the twin.');
  expect(sweepHint(2, 2, 3, null)).toContain('measures both points on real threads.');
  expect(sweepHint(15, 0, 16, 'you chose the simulation')).toContain(
    'simulates all 15 points on the twin (you chose the simulation).',
  );
});
