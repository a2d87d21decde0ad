// The wasm suite's count: a program that crashes or hangs part-way must fail the suite with the
// tests it never reported, not drop out of the count.
import { expect, test } from 'vitest';
import { wasmGtestCounts } from '../../../scripts/lib/suites.mjs';

const ctestOutput = `test 1
    Start 1: wasm.queue_tests
1: [==========] 3 tests from 1 test suite ran.
1: [  PASSED  ] 3 tests.
1/2 Test #1: wasm.queue_tests ...   Passed
test 2
    Start 2: wasm.sched_tests
2: [ RUN      ] Deque.StealsTheLastTask
2: Aborted(RuntimeError: memory access out of bounds)
2/2 Test #2: wasm.sched_tests ...***Failed`;

test('every listed test is counted: passed, failed, or never reported', () => {
  const expected: Record<string, number> = { queue_tests: 3, sched_tests: 4 };
  const counts = wasmGtestCounts('/unused', ctestOutput, (program: string) => expected[program]);
  expect(counts).toEqual({
    passed: 3,
    failed: 4,
    note: 'sched_tests: 4 of 4 tests never reported (crashed or hung?)',
  });
});

test('a failed summary counts its failures once', () => {
  const output = `    Start 7: wasm.x_tests
7: [  PASSED  ] 5 tests.
7: [  FAILED  ] 1 test, listed below:`;
  expect(wasmGtestCounts('/unused', output, () => 6)).toEqual({ passed: 5, failed: 1 });
});
