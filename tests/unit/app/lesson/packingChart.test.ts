// Lesson 7's chart label names the idealised bound's highest point where threads outnumber cores:
// the maximum of the curve it labels, not its value at T−1 cores (32 threads peak at 15 cores,
// 1.406, where 16 cores give 1.000), and no point at all with one thread.
import { expect, test } from 'vitest';
import { boundLabel } from '../../../../src/app/lesson/components/PackingChartBlock';
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
  expect(boundLabel(1)).toBe('idealised bound ⌈T/C⌉·C/T, no balancing inside an interval');
});
